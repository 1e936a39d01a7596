import type { StoredEventType } from '../../core/event-types.js';
import { cardRecipes } from './card-recipes.js';
import { ownerRecipes } from './owner-recipes.js';
import { paymentTokenRecipes } from './payment-token-recipes.js';
import type { Recipe } from './recipe.js';
import { riskRecipes } from './risk-recipes.js';
import { spendingRecipes } from './spending-recipes.js';

/**
 * How each event type is made to happen, by its stored (catalog) name: a type without a recipe, or a recipe for a
 * type that does not exist, is a compile error.
 */
export const RECIPES: Readonly<Record<StoredEventType, Recipe>> = {
  ...ownerRecipes,
  ...spendingRecipes,
  ...cardRecipes,
  ...riskRecipes,
  ...paymentTokenRecipes,
} satisfies Record<StoredEventType, Recipe>;
