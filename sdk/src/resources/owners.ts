import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { OwnerRoute, OwnerRoutes } from './owner-routes.js';
import type { CustomerPaths, UserPaths, VariantPaths } from './variant-paths.js';

type OwnerOp<Paths, Route extends 'collection' | 'item' | 'balances', Method extends 'get' | 'post' | 'patch' | 'delete'> = Op<
  Paths,
  OwnerRoute<Paths, Route>,
  Method
>;

/** Account holders that own agents and cards and hold balances: `customers` or `users`, depending on the variant. */
export class Owners<Paths extends VariantPaths> extends APIResource<Paths> {
  readonly #routes: OwnerRoutes<Paths>;

  constructor(core: ClientCore<Paths>, routes: OwnerRoutes<Paths>) {
    super(core);
    this.#routes = routes;
  }

  #route<Name extends 'collection' | 'item' | 'balances'>(name: Name): OwnerRoute<Paths, Name> {
    return this.#routes[name] as OwnerRoute<Paths, Name>;
  }

  #id(ownerId: string): Record<string, string> {
    return { [this.#routes.param]: ownerId };
  }

  /** Creates the customer (user) and starts KYC. */
  create(
    ...[body, options]: BodyArgs<OwnerOp<Paths, 'collection', 'post'>>
  ): APIPromise<ResponseBody<OwnerOp<Paths, 'collection', 'post'>>> {
    return this.request('post', this.#route('collection'), { body }, options);
  }

  /** The customer (user) with this id. */
  retrieve(ownerId: string, options?: RequestOptions): APIPromise<ResponseBody<OwnerOp<Paths, 'item', 'get'>>> {
    return this.request('get', this.#route('item'), { path: this.#id(ownerId) }, options);
  }

  /** Changes the customer's (user's) email, phone, name, policy or metadata. */
  update(
    ownerId: string,
    ...[body, options]: BodyArgs<OwnerOp<Paths, 'item', 'patch'>>
  ): APIPromise<ResponseBody<OwnerOp<Paths, 'item', 'patch'>>> {
    return this.request('patch', this.#route('item'), { path: this.#id(ownerId), body }, options);
  }

  /** A page of customers (users), newest first. */
  list(
    ...[query, options]: QueryArgs<OwnerOp<Paths, 'collection', 'get'>>
  ): PagePromise<ListItem<OwnerOp<Paths, 'collection', 'get'>>> {
    return this.requestPage(this.#route('collection'), { query }, options);
  }

  /** Marks the customer (user) `deleted`; its agents and cards are closed. */
  delete(ownerId: string, options?: RequestOptions): APIPromise<ResponseBody<OwnerOp<Paths, 'item', 'delete'>>> {
    return this.request('delete', this.#route('item'), { path: this.#id(ownerId) }, options);
  }

  /** The balance of the customer (user), in cents: `available` to spend, `pending` held, `posted` settled. */
  balances(ownerId: string, options?: RequestOptions): APIPromise<ResponseBody<OwnerOp<Paths, 'balances', 'get'>>> {
    return this.request('get', this.#route('balances'), { path: this.#id(ownerId) }, options);
  }
}

/** Customers own agents and cards and hold balances (customer variant). */
export type Customers = Owners<CustomerPaths>;
/** Users own agents and cards and hold balances (user variant; a user is a customer). */
export type Users = Owners<UserPaths>;
