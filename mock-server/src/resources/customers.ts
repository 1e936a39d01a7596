import { balanceOf } from '../domain/balances.js';
import { deleteCustomer } from '../domain/customer-deletion.js';
import { createCustomer, customers, requireCustomer, updateCustomer } from '../domain/customers.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import { listPage } from '../core/list-page.js';

/** Customers (customer variant) and users (user variant): one object, two names (variants/user.ts maps them). */
export const customerHandlers = {
  createCustomer: (ctx) => createCustomer(ctx.tenant, ctx.body),
  listCustomers: (ctx) => listPage(customers.of(ctx.tenant), ctx.query),
  getCustomer: (ctx) => requireCustomer(ctx.tenant, ctx.params.customerId),
  updateCustomer: (ctx) => updateCustomer(ctx.tenant, requireCustomer(ctx.tenant, ctx.params.customerId), ctx.body),
  deleteCustomer: (ctx) => deleteCustomer(ctx.tenant, requireCustomer(ctx.tenant, ctx.params.customerId)),
  getCustomerBalances: (ctx) => balanceOf(ctx.tenant, requireCustomer(ctx.tenant, ctx.params.customerId).id),
} satisfies Partial<NeutralHandlers>;
