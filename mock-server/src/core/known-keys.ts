/** T without index signatures, keeping only the properties it names. */
export type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
