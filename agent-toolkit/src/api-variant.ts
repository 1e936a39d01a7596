/** `customer`: `Cardrail`, `Authorization: Bearer <key>`. `user`: `CardrailUsers`, `Api-Key: <key>`. */
export type ApiVariant = 'customer' | 'user';

export const API_VARIANTS: readonly ApiVariant[] = ['customer', 'user'];
