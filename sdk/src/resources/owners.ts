import type { APIPromise } from '../core/api-promise.js';
import { APIResource, queryOf } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  Balance,
  Customer,
  CustomerCreateParams,
  CustomerListParams,
  CustomerUpdateParams,
  MandateIssuerKeysParams,
  MandateIssuers,
  User,
  UserMandateIssuers,
  UserListParams,
} from '../generated/api-names.js';
import { OWNER_ROUTES, ownerIds } from './owner-routes.js';
import type { ByVariant, CustomerPaths, UserPaths, VariantPaths } from './variant-paths.js';

/** Account holders that own agents and cards and hold balances: `customers` or `users`, depending on the variant. */
export class Owners<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Creates the customer (user) and starts KYC. */
  create(params: CustomerCreateParams, options?: RequestOptions): APIPromise<ByVariant<Paths, Customer, User>> {
    return this.send('post', OWNER_ROUTES.collection, { body: params }, options);
  }

  /** The customer (user) with this id. */
  retrieve(ownerId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Customer, User>> {
    return this.send('get', OWNER_ROUTES.item, { path: ownerIds(ownerId) }, options);
  }

  /** Changes the customer's (user's) email, phone, name, policy or metadata. */
  update(ownerId: string, params: CustomerUpdateParams, options?: RequestOptions): APIPromise<ByVariant<Paths, Customer, User>> {
    return this.send('patch', OWNER_ROUTES.item, { path: ownerIds(ownerId), body: params }, options);
  }

  /** A page of customers (users), newest first. */
  list(
    query?: ByVariant<Paths, CustomerListParams, UserListParams>,
    options?: RequestOptions,
  ): PagePromise<ByVariant<Paths, Customer, User>> {
    return this.sendPage(OWNER_ROUTES.collection, { query: queryOf(query) }, options);
  }

  /** Marks the customer (user) `deleted`; its agents and cards are closed. */
  delete(ownerId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Customer, User>> {
    return this.send('delete', OWNER_ROUTES.item, { path: ownerIds(ownerId) }, options);
  }

  /** The public keys of the parties whose signed AP2 mandates count for the customer's (user's) cards. */
  mandateIssuers(ownerId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, MandateIssuers, UserMandateIssuers>> {
    return this.send('get', OWNER_ROUTES.mandateIssuers, { path: ownerIds(ownerId) }, options);
  }

  /**
   * Replaces the customer's (user's) trusted mandate issuers with a JSON Web Key Set of public P-256 keys, each with
   * a `kid`; a key with private material is refused and nothing changes.
   */
  setMandateIssuers(
    ownerId: string,
    params: MandateIssuerKeysParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, MandateIssuers, UserMandateIssuers>> {
    return this.send('post', OWNER_ROUTES.mandateIssuers, { path: ownerIds(ownerId), body: params }, options);
  }

  /** The balance of the customer (user), in cents: `available` to spend, `pending` held, `posted` settled. */
  balances(ownerId: string, options?: RequestOptions): APIPromise<Balance> {
    return this.send('get', OWNER_ROUTES.balances, { path: ownerIds(ownerId) }, options);
  }
}

/** Customers own agents and cards and hold balances (customer variant). */
export type Customers = Owners<CustomerPaths>;
/** Users own agents and cards and hold balances (user variant; a user is a customer). */
export type Users = Owners<UserPaths>;
