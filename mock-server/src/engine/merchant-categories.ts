/**
 * Names of common merchant category codes (ISO 18245), for `merchantCategory` in `transaction.authorized`.
 * An unknown code has no name (null), as the schema allows.
 */
const NAMES: Record<string, string> = {
  '4111': 'Commuter Transport',
  '4121': 'Taxicabs and Limousines',
  '4511': 'Airlines',
  '4814': 'Telecommunication Services',
  '4816': 'Computer Network Services',
  '4899': 'Cable and Streaming Services',
  '5045': 'Computers and Peripheral Equipment',
  '5411': 'Grocery Stores and Supermarkets',
  '5499': 'Miscellaneous Food Stores',
  '5734': 'Computer Software Stores',
  '5735': 'Record Stores',
  '5812': 'Eating Places and Restaurants',
  '5814': 'Fast Food Restaurants',
  '5816': 'Digital Goods: Games',
  '5817': 'Digital Goods: Applications',
  '5818': 'Digital Goods: Large Digital Goods Merchant',
  '5942': 'Book Stores',
  '5961': 'Mail Order Houses',
  '5999': 'Miscellaneous and Specialty Retail Stores',
  '6051': 'Quasi Cash: Cryptocurrency',
  '7011': 'Hotels and Motels',
  '7372': 'Computer Programming and Data Processing',
  '7399': 'Business Services',
  '7995': 'Betting and Gambling',
  '8999': 'Professional Services',
};

export function merchantCategoryName(mcc: string | undefined): string | null {
  return mcc === undefined ? null : (NAMES[mcc] ?? null);
}
