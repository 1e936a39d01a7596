// app/webhooks/cardrail/route.ts in a Next.js App Router project.
import { unwrap, WebhookVerificationError } from '@cardrail/sdk/webhooks';

export async function POST(request: Request): Promise<Response> {
  try {
    // request.text(), not request.json(): the signature covers the body's exact bytes.
    const event = await unwrap(await request.text(), request.headers, process.env.CARDRAIL_WEBHOOK_SECRET!);
    console.log(`Received ${event.type} ${event.id}`);
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response(error.message, { status: 400 });
    throw error;
  }
}
