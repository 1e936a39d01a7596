// Preloaded with `node --import`: writes to standard error the URL of each module the process loads, through
// `import` or `require` alike (module.registerHooks, Node.js 22.15+), one `loaded <url>` line each.
import { registerHooks } from 'node:module';

registerHooks({
  load(url, context, nextLoad) {
    process.stderr.write(`loaded ${url}\n`);
    return nextLoad(url, context);
  },
});
