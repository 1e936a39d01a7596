// A page on one origin that calls the standalone mock on another through the SDK (test/browser.test.ts). It exposes
// its calls on `window` for the test to run with `page.evaluate`.
import * as sdk from '@cardrail/sdk';
import { apiSteps, freshKey } from '../scenarios/scenario.ts';

/** What a single create answered, as data a test can read across the page boundary. */
interface Attempt {
  ok: boolean;
  error?: { connectionError: boolean; code: string; status: number | undefined };
}

const page = window as unknown as {
  cardrailReady: boolean;
  runApiSteps(baseUrl: string): Promise<string[]>;
  tryCreateCustomer(baseUrl: string, apiKey: string, email: string): Promise<Attempt>;
};

page.runApiSteps = (baseUrl) => apiSteps(sdk, new sdk.Cardrail({ apiKey: freshKey(), baseUrl, maxRetries: 0 }));

page.tryCreateCustomer = async (baseUrl, apiKey, email) => {
  const client = new sdk.Cardrail({ apiKey, baseUrl, maxRetries: 0 });
  try {
    await client.customers.create({ email });
    return { ok: true };
  } catch (error) {
    if (!(error instanceof sdk.CardrailError)) throw error;
    return {
      ok: false,
      error: { connectionError: error instanceof sdk.ConnectionError, code: error.code, status: error.status },
    };
  }
};

page.cardrailReady = true;
