// The merchant fakes of `@cardrail/mock-server/merchants`: merchants that ask an agent to pay the way merchants do in
// 2026 (an MPP card 402, an ACP checkout with its PSP's delegate_payment vault), authorizing through the mock.
export {
  createMppCardMerchant,
  type MppCardMerchant,
  type MppCardMerchantOptions,
  type MppMerchantFault,
  type MppMerchantPayment,
} from './mpp-card-merchant.js';
export {
  createAcpMerchant,
  type AcpCheckoutSession,
  type AcpMerchant,
  type AcpMerchantFault,
  type AcpMerchantOptions,
} from './acp-merchant.js';
export { ACP_VERSION } from './acp-psp-vault.js';
export type { VaultEntry } from './acp-psp-vault.js';
