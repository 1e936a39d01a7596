import { balanceOf, renderBalance } from '../domain/balances.js';
import { deleteCustomer } from '../domain/customer-deletion.js';
import { createCustomer, customers, renderCustomer, requireCustomer, updateCustomer } from '../domain/customers.js';
import type { HandlerMap, OperationContext } from '../http/operation-handler.js';
import { listPage } from './pagination.js';

/** The customer (or user) id of the path, whichever variant named it. */
function pathCustomerId(ctx: OperationContext): string {
  return (ctx.params.customerId ?? ctx.params.userId) as string;
}

const create = (ctx: OperationContext) => ({ body: renderCustomer(createCustomer(ctx.tenant, ctx.body)) });
const list = (ctx: OperationContext) => ({ body: listPage(customers.of(ctx.tenant), ctx.query, renderCustomer) });
const get = (ctx: OperationContext) => ({ body: renderCustomer(requireCustomer(ctx.tenant, pathCustomerId(ctx))) });
const update = (ctx: OperationContext) => {
  const customer = requireCustomer(ctx.tenant, pathCustomerId(ctx));
  return { body: renderCustomer(updateCustomer(ctx.tenant, customer, ctx.body)) };
};
const remove = (ctx: OperationContext) => {
  const customer = requireCustomer(ctx.tenant, pathCustomerId(ctx));
  return { body: renderCustomer(deleteCustomer(ctx.tenant, customer)) };
};
const balances = (ctx: OperationContext) => {
  const customer = requireCustomer(ctx.tenant, pathCustomerId(ctx));
  return { body: renderBalance(balanceOf(ctx.tenant, customer.id)) };
};

/** Customers (customer variant) and users (user variant): one object, two names. */
export const customerHandlers: HandlerMap = {
  createCustomer: create,
  createUser: create,
  listCustomers: list,
  listUsers: list,
  getCustomer: get,
  getUser: get,
  updateCustomer: update,
  updateUser: update,
  deleteCustomer: remove,
  deleteUser: remove,
  getCustomerBalances: balances,
  getUserBalances: balances,
};
