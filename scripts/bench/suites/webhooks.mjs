// Webhook verification (issue "Benchmarks", item 4; issue "Performance round 2", item 1): verifications per second of
// the SDK's verifySignature and verifySignatureSync from the built package (sdk/dist, what users install), against
// the same job written the obvious way with node:crypto, side by side in one run:
//
// - the node:crypto build, imported by name (`@cardrail/sdk/webhooks`), which Node resolves to dist/webhooks.node.mjs
//   through the package's `node` export condition: what a receiver on Node, Bun or Deno runs. The targets apply here;
// - the Web Crypto build (dist/webhooks.mjs, what browsers, edge runtimes and workers get), run on Node for
//   comparison, with a bare crypto.subtle.sign against a bare createHmac to show how much of its gap is Node's Web
//   Crypto itself.
//
// The baseline is a faithful equivalent of verifySignature, not a bare HMAC: it parses the same `Cardrail-Signature`
// grammar (`t=<digits>,v1=<64 hex>[,v1=...]`, whitespace around separators ignored, hex case-insensitive, unknown
// schemes and empty v1 skipped, a repeated or non-numeric t refused), checks the timestamp against the system clock
// with the same 300 s tolerance both ways, computes HMAC-SHA256 over `<t>.` + body with `createHmac` (the whole
// secret string, `whsec_` included, is the key) and compares with `timingSafeEqual` against every v1 entry. It comes
// in two forms, called the same way as ours: an async function (against verifySignature) and a plain function
// (against verifySignatureSync).
//
// All get the same body bytes (a Buffer, as node:http and express.raw deliver them) and the same header with one v1
// signature; the header is made fresh for each size so that the timestamp is within tolerance. The targets are judged
// on sequential calls (each finished, and awaited when async, before the next, as a receiver does per request); the
// "64 in flight" rows show throughput when a busy server verifies many deliveries at once.
//
// Standard Webhooks rows: `unwrap` of the node:crypto build given the request's headers, against the reference
// library, `standardwebhooks` (npm's latest; svix 2 delegates to it), verifying the same delivery and parsing its JSON
// (`new Webhook(secret).verify(body, headers)`, the Webhook made once, as a receiver keeps it): once with the Standard
// Webhooks headers alone, once with every header a Cardrail delivery carries (the SDK then checks both schemes, the
// library only its own).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { formatRate, formatRatio } from '../lib/format.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'Webhook verification';

const sdkDist = join(import.meta.dirname, '..', '..', '..', 'sdk', 'dist');
const webCryptoEntry = pathToFileURL(join(sdkDist, 'webhooks.mjs')).href;
const SECRET = 'whsec_9TyI1uOwv1DdE-ExAmPlEkEy_Abc12345';
/** A secret as the API issues it (base64 after `whsec_`), which Standard Webhooks decodes into its key. */
const STANDARD_SECRET = 'whsec_Q2FyZHJhaWxTaWduaW5nU2VjcmV0MTIz';
const IN_FLIGHT = 64;
const SIZES = [
  { label: '1 KB', bytes: 1024, target: 0.8 },
  { label: '64 KB', bytes: 64 * 1024, target: 0.9 },
];

/** A card.frozen event padded to exactly `bytes` bytes of JSON. */
function eventBody(bytes) {
  const event = {
    id: 'evt_01JD3K8M2Q',
    type: 'card.frozen',
    createdAt: '2026-11-21T19:00:00.000Z',
    data: { cardId: 'card_1', agentId: 'agt_1', reason: 'manual', frozenBy: 'api', note: '' },
  };
  const empty = Buffer.byteLength(JSON.stringify(event));
  event.data.note = 'x'.repeat(bytes - empty);
  const body = Buffer.from(JSON.stringify(event));
  if (body.length !== bytes) throw new Error(`event body is ${body.length} bytes, wanted ${bytes}`);
  return body;
}

// ---- the node:crypto baseline ---------------------------------------------------------------------------------

const DIGITS = /^\d+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

function baselineVerifySync({ payload, header, secret, toleranceSeconds = 300 }) {
  if (header == null || header.trim() === '') throw new Error('missing_header');
  let timestamp;
  const signatures = [];
  for (const element of header.split(',')) {
    const part = element.trim();
    if (part === '') continue;
    const separator = part.indexOf('=');
    if (separator <= 0) throw new Error('malformed_header');
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === 't') {
      if (timestamp !== undefined || !DIGITS.test(value)) throw new Error('malformed_header');
      timestamp = Number(value);
    } else if (scheme === 'v1' && value !== '') {
      const digest = value.toLowerCase();
      if (!SHA256_HEX.test(digest)) throw new Error('malformed_header');
      signatures.push(Buffer.from(digest, 'hex'));
    }
  }
  if (timestamp === undefined) throw new Error('malformed_header');
  if (signatures.length === 0) throw new Error('missing_signature');
  if (Math.abs(Math.floor(Date.now() / 1000) - timestamp) > toleranceSeconds) throw new Error('timestamp_out_of_tolerance');
  const secrets = Array.isArray(secret) ? secret : [secret];
  for (const key of secrets) {
    const digest = createHmac('sha256', key).update(`${timestamp}.`).update(payload).digest();
    for (const signature of signatures) {
      if (timingSafeEqual(digest, signature)) return;
    }
  }
  throw new Error('signature_mismatch');
}

async function baselineVerify(params) {
  baselineVerifySync(params);
}

// ---- timing ---------------------------------------------------------------------------------------------------

/** Calls per second over about `ms` milliseconds, running `batch` (which makes `size` calls) until time is up. */
async function rate(batch, size, ms) {
  let calls = 0;
  const started = performance.now();
  const deadline = started + ms;
  let now = started;
  while (now < deadline) {
    await batch();
    calls += size;
    now = performance.now();
  }
  return calls / ((now - started) / 1000);
}

/**
 * Calls per second of `call`, one after the other: an async call is awaited before the next, a sync one returns before
 * the next. The clock is read every 16 calls, not to weigh on them.
 */
function sequentialRate({ call, sync }, ms) {
  const batch = sync
    ? async () => {
        for (let index = 0; index < 16; index += 1) call();
      }
    : async () => {
        for (let index = 0; index < 16; index += 1) await call();
      };
  return rate(batch, 16, ms);
}

/** Calls per second with `IN_FLIGHT` async calls started together and awaited together. */
function inFlightRate({ call }, ms) {
  return rate(() => Promise.all(Array.from({ length: IN_FLIGHT }, call)), IN_FLIGHT, ms);
}

/**
 * Rates of every contender in round-robin rounds (the starting contender rotates each round) so that all of them see
 * the same machine load. Each figure is the median over the rounds; each ratio the median of the ratios within a
 * round, since on a shared machine a ratio measured in one round is far steadier than two absolute rates.
 */
async function roundRobin(contenders, { measure, batches, batchMs, warmUpMs }) {
  const names = Object.keys(contenders);
  for (const name of names) await measure(contenders[name], warmUpMs); // JIT, key import, thread pool start
  const rounds = [];
  for (let batch = 0; batch < batches; batch += 1) {
    const round = {};
    for (let turn = 0; turn < names.length; turn += 1) {
      const name = names[(batch + turn) % names.length];
      round[name] = await measure(contenders[name], batchMs);
    }
    rounds.push(round);
  }
  return {
    rate: (name) => median(rounds.map((round) => round[name])),
    ratio: (ours, baseline) => median(rounds.map((round) => round[ours] / round[baseline])),
  };
}

/** Every verifier must accept the genuine delivery and refuse a tampered one before its speed means anything. */
async function checkAgreement(verifiers, payload, header) {
  const tampered = Buffer.from(payload);
  tampered[tampered.length - 3] ^= 1;
  for (const [name, verify] of Object.entries(verifiers)) {
    await verify({ payload, header, secret: SECRET });
    const refused = await (async () => verify({ payload: tampered, header, secret: SECRET }))().then(
      () => false,
      () => true,
    );
    if (!refused) throw new Error(`${name} accepted a tampered body`);
  }
}

/** Both verifiers accept the delivery, parse the same event, and refuse a tampered body, before any timing. */
async function checkStandardAgreement(nodeBuild, library, payload, standardOnly, both) {
  const tampered = Buffer.from(payload);
  tampered[tampered.length - 3] ^= 1;
  for (const headers of [standardOnly, both]) {
    const ours = await nodeBuild.unwrap(payload, headers, STANDARD_SECRET);
    if (JSON.stringify(ours) !== JSON.stringify(library.verify(payload, headers)))
      throw new Error('unwrap and standardwebhooks disagree');
    const refused = await nodeBuild.unwrap(tampered, headers, STANDARD_SECRET).then(
      () => false,
      () => true,
    );
    if (!refused) throw new Error('unwrap accepted a tampered body');
    if (
      (() => {
        try {
          library.verify(tampered, headers);
          return true;
        } catch {
          return false;
        }
      })()
    ) {
      throw new Error('standardwebhooks accepted a tampered body');
    }
  }
}

/** The build Node resolves for the package name, and the Web Crypto build by path; checked to be what they claim. */
async function loadBuilds() {
  const resolved = import.meta.resolve('@cardrail/sdk/webhooks');
  if (!resolved.endsWith('/sdk/dist/webhooks.node.mjs'))
    throw new Error(`@cardrail/sdk/webhooks resolved to ${resolved}, not the node:crypto build`);
  const nodeBuild = await import('@cardrail/sdk/webhooks');
  const webBuild = await import(webCryptoEntry);
  if (nodeBuild.verifySignature === webBuild.verifySignature) throw new Error('the two builds are the same module');
  const webSync = (() => {
    try {
      webBuild.verifySignatureSync({ payload: '', header: '', secret: SECRET });
    } catch (error) {
      return error.code;
    }
  })();
  if (webSync !== 'webhook_sync_unavailable')
    throw new Error(`the Web Crypto build's verifySignatureSync did not refuse (${webSync})`);
  return { nodeBuild, webBuild, resolved: fileURLToPath(resolved) };
}

function row(measure, ours, baseline, ratio, target) {
  return {
    measure,
    ours,
    baseline,
    ratio: formatRatio(ratio),
    target: target === undefined ? '' : `>= ${target}x`,
    met: target === undefined ? null : ratio >= target,
  };
}

export async function run({ quick, log }) {
  const { nodeBuild, webBuild } = await loadBuilds();
  const timing = quick ? { batches: 3, batchMs: 120, warmUpMs: 100 } : { batches: 7, batchMs: 400, warmUpMs: 300 };
  const { batches, batchMs } = timing;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const rows = [];
  const floorRatios = [];

  for (const size of SIZES) {
    const payload = eventBody(size.bytes);
    const header = nodeBuild.generateSignatureHeaderSync({ payload, secret: SECRET });
    if (
      header !==
      (await webBuild.generateSignatureHeader({
        payload,
        secret: SECRET,
        timestamp: Number(header.slice(2, header.indexOf(','))),
      }))
    ) {
      throw new Error('the two builds sign differently');
    }
    const params = { payload, header, secret: SECRET };
    await checkAgreement(
      {
        'verifySignature (node:crypto build)': nodeBuild.verifySignature,
        'verifySignatureSync (node:crypto build)': nodeBuild.verifySignatureSync,
        'verifySignature (Web Crypto build)': webBuild.verifySignature,
        'baseline (async)': baselineVerify,
        'baseline (sync)': baselineVerifySync,
      },
      payload,
      header,
    );
    const signedContent = Buffer.concat([Buffer.from(`${header.slice(2, header.indexOf(','))}.`), payload]);

    log(
      `${size.label}: both builds, the node:crypto baseline and the bare HMAC calls, sequential (${batches} rounds of ${batchMs} ms each)`,
    );
    const sequential = await roundRobin(
      {
        nodeAsync: { call: () => nodeBuild.verifySignature(params) },
        baselineAsync: { call: () => baselineVerify(params) },
        nodeSync: { call: () => nodeBuild.verifySignatureSync(params), sync: true },
        baselineSync: { call: () => baselineVerifySync(params), sync: true },
        webAsync: { call: () => webBuild.verifySignature(params) },
        subtleSign: { call: () => crypto.subtle.sign('HMAC', key, signedContent) },
        createHmac: { call: () => createHmac('sha256', SECRET).update(signedContent).digest(), sync: true },
      },
      { measure: sequentialRate, ...timing },
    );
    const { rate: r, ratio } = sequential;
    rows.push(
      row(
        `verifySignature, node:crypto build, ${size.label} body, sequential`,
        formatRate(r('nodeAsync'), 'verif/s'),
        `node:crypto (async) ${formatRate(r('baselineAsync'), 'verif/s')}`,
        ratio('nodeAsync', 'baselineAsync'),
        size.target,
      ),
      row(
        `verifySignatureSync, node:crypto build, ${size.label} body, sequential`,
        formatRate(r('nodeSync'), 'verif/s'),
        `node:crypto (sync) ${formatRate(r('baselineSync'), 'verif/s')}`,
        ratio('nodeSync', 'baselineSync'),
        size.target,
      ),
      row(
        `verifySignature, Web Crypto build (browsers, edge), on Node, ${size.label} body, sequential`,
        formatRate(r('webAsync'), 'verif/s'),
        `node:crypto (async) ${formatRate(r('baselineAsync'), 'verif/s')}`,
        ratio('webAsync', 'baselineAsync'),
      ),
      row(
        `crypto.subtle.sign alone (key imported once), ${size.label}, sequential`,
        formatRate(r('subtleSign'), 'sign/s'),
        `createHmac alone ${formatRate(r('createHmac'), 'sign/s')}`,
        ratio('subtleSign', 'createHmac'),
      ),
    );
    floorRatios.push(`${formatRatio(ratio('subtleSign', 'createHmac'))} at ${size.label}`);

    log(`${size.label}: Standard Webhooks, unwrap (node:crypto build) and the standardwebhooks library, sequential`);
    const both = nodeBuild.generateWebhookHeadersSync({ payload, secret: STANDARD_SECRET, id: 'whd_1AsD4fG7hJ' });
    const { 'Cardrail-Signature': _, ...standardOnly } = both;
    const library = new Webhook(STANDARD_SECRET);
    await checkStandardAgreement(nodeBuild, library, payload, standardOnly, both);
    const standard = await roundRobin(
      {
        unwrapStandard: { call: () => nodeBuild.unwrap(payload, standardOnly, STANDARD_SECRET) },
        libraryStandard: { call: () => library.verify(payload, standardOnly), sync: true },
        unwrapBoth: { call: () => nodeBuild.unwrap(payload, both, STANDARD_SECRET) },
        libraryBoth: { call: () => library.verify(payload, both), sync: true },
      },
      { measure: sequentialRate, ...timing },
    );
    rows.push(
      row(
        `unwrap, Standard Webhooks headers, node:crypto build, ${size.label} body, sequential`,
        formatRate(standard.rate('unwrapStandard'), 'verif/s'),
        `standardwebhooks ${formatRate(standard.rate('libraryStandard'), 'verif/s')}`,
        standard.ratio('unwrapStandard', 'libraryStandard'),
        1,
      ),
      row(
        `unwrap, a Cardrail delivery's headers (both schemes checked), node:crypto build, ${size.label} body, sequential`,
        formatRate(standard.rate('unwrapBoth'), 'verif/s'),
        `standardwebhooks (its scheme only) ${formatRate(standard.rate('libraryBoth'), 'verif/s')}`,
        standard.ratio('unwrapBoth', 'libraryBoth'),
      ),
    );

    if (!quick) {
      log(`${size.label}: verifySignature of both builds and the node:crypto baseline, ${IN_FLIGHT} in flight`);
      const parallel = await roundRobin(
        {
          nodeAsync: { call: () => nodeBuild.verifySignature(params) },
          baselineAsync: { call: () => baselineVerify(params) },
          webAsync: { call: () => webBuild.verifySignature(params) },
        },
        { measure: inFlightRate, ...timing },
      );
      rows.push(
        row(
          `verifySignature, node:crypto build, ${size.label} body, ${IN_FLIGHT} in flight (throughput)`,
          formatRate(parallel.rate('nodeAsync'), 'verif/s'),
          `node:crypto (async) ${formatRate(parallel.rate('baselineAsync'), 'verif/s')}`,
          parallel.ratio('nodeAsync', 'baselineAsync'),
        ),
        row(
          `verifySignature, Web Crypto build, on Node, ${size.label} body, ${IN_FLIGHT} in flight (throughput)`,
          formatRate(parallel.rate('webAsync'), 'verif/s'),
          `node:crypto (async) ${formatRate(parallel.rate('baselineAsync'), 'verif/s')}`,
          parallel.ratio('webAsync', 'baselineAsync'),
        ),
      );
    }
  }

  const notes = [
    `Targets (>= ${SIZES.map((size) => `${size.target}x at ${size.label}`).join(', ')} of the node:crypto baseline) are judged on the node:crypto build, sequential: each verification finished (awaited, for the async forms) before the next, as a receiver does per request. verifySignature is compared with the async baseline, verifySignatureSync with the sync one. ${quick ? 'Full mode adds' : 'The'} in-flight rows (Promise.all of ${IN_FLIGHT}): throughput, for information.`,
    '`@cardrail/sdk/webhooks` imported by name resolves, on Node, to sdk/dist/webhooks.node.mjs (the `node` export condition; Bun and Deno resolve it too): createHmac on the calling thread, the body fed to the HMAC as received. The suite checks that resolution, that both builds sign alike and that every verifier refuses a tampered body before timing anything.',
    'Standard Webhooks rows: `unwrap(body, headers, secret)` of the node:crypto build against `new Webhook(secret).verify(body, headers)` of the `standardwebhooks` library (made once), the same delivery for both, each verifying and parsing the JSON. The first row gives both the Standard Webhooks headers alone (target: at least as fast as the library); the second gives every header a Cardrail delivery carries, where the SDK checks both schemes (two HMACs) and the library its own. The library computes HMAC-SHA256 in JavaScript (fast-sha256); the SDK uses createHmac.',
    'Baseline: the same job written with node:crypto (same header grammar, 300 s tolerance against the system clock, createHmac over `<t>.` + body, timingSafeEqual against every v1), as an async and as a plain function; all get the same Buffer body and the same one-signature header. See the comment at the top of scripts/bench/suites/webhooks.mjs.',
    `The Web Crypto build (what browsers, edge runtimes and workers get) has no target on Node, which never loads it. On Node ${process.versions.node}, each crypto.subtle call is a native job dispatched to libuv's thread pool and resolved on a later event-loop turn; a bare crypto.subtle.sign reaches ${floorRatios.join(', ')} of a bare createHmac (the "alone" rows): the gap is in the one Web Crypto call, not in the work around it.`,
    `Figures are medians of ${batches} round-robin rounds of ${batchMs} ms per contender (the first contender rotates, so that all see the same machine load), after a ${timing.warmUpMs} ms warm-up each; ratios are the median of the per-round ratios.`,
  ];
  return { rows, notes };
}
