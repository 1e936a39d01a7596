/**
 * The user variant names the owner `userId` where the customer variant (and the neutral records) say `customerId`
 * (docs/variants.md). These rename that one key, keeping every other key, and its order, as it is.
 */

/** `T` with its `customerId` called `userId`. */
export type WithUserId<T> = T extends { customerId: infer Owner }
  ? { [K in keyof T as K extends 'customerId' ? 'userId' : K]: K extends 'customerId' ? Owner : T[K] }
  : T;

/** `T` with its `userId` called `customerId`. */
export type WithCustomerId<T> = T extends { userId?: infer Owner }
  ? { [K in keyof T as K extends 'userId' ? 'customerId' : K]: K extends 'userId' ? Owner : T[K] }
  : T;

function renameKey(value: object, from: string, to: string): object {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key === from ? to : key] = item;
  return out;
}

/** A rendered record or request part as the user variant names it. */
export function withUserId<T extends { customerId: unknown }>(value: T): WithUserId<T> {
  // The mapped type renames exactly the key renameKey renames.
  return renameKey(value, 'customerId', 'userId') as WithUserId<T>;
}

/** A user-variant request part as the neutral handlers name it. */
export function withCustomerId<T extends object>(value: T): WithCustomerId<T> {
  // The mapped type renames exactly the key renameKey renames.
  return renameKey(value, 'userId', 'customerId') as WithCustomerId<T>;
}
