// A typedoc plugin (typedoc.json `plugin`, `theme: "cardrail"`): TypeDoc's default theme, as of 0.28.20, prints the
// summary of an `@expand` interface twice under a parameter or property typed by it that has no description of its
// own: once as that item's description (its `commentSummary` falls back to the type's summary) and again above the
// type's fields (its `typeDetails` lists the interface with its summary). The SDK's methods take the generated
// `...Params` interfaces (`@expand`, so that each method lists the fields it accepts), so "The body of
// `POST /cards/{cardId}/credentials`" appeared twice under `cards.credentials`. This theme is the default one, except
// that the fields listed under such an item follow its description without repeating it.
import { DefaultTheme, DefaultThemeRenderContext } from 'typedoc';

/** The interface whose summary `owner` shows as its own description when its type is `type`, if any. */
function summaryBorrowedBy(owner, type) {
  if (owner.comment?.summary.some((part) => part.text) || owner.type !== type || type?.type !== 'reference') return;
  const target = type.reflection;
  // A type alias lists its aliased type, which has no summary of its own: nothing repeats.
  if (!target?.isDeclaration() || target.type) return;
  const comment = target.comment;
  if (comment?.hasModifier('@expand') && comment.summary.some((part) => part.text)) return target;
}

class CardrailRenderContext extends DefaultThemeRenderContext {
  /** The interface whose fields are being listed under an item that already shows its summary. */
  #summaryShown;

  constructor(...args) {
    super(...args);
    const { commentSummary, typeDetails } = this;
    this.commentSummary = (reflection) => (reflection === this.#summaryShown ? undefined : commentSummary(reflection));
    // The theme's partials render eagerly, so the interface's summary is skipped only while its fields are listed here.
    this.typeDetails = (owner, type, renderAnchors) => {
      const outer = this.#summaryShown;
      this.#summaryShown = summaryBorrowedBy(owner, type) ?? outer;
      try {
        return typeDetails(owner, type, renderAnchors);
      } finally {
        this.#summaryShown = outer;
      }
    };
  }
}

class CardrailTheme extends DefaultTheme {
  ContextClass = CardrailRenderContext;
}

export function load(app) {
  app.renderer.defineTheme('cardrail', CardrailTheme);
}
