import { prismProxyHarness } from './support/harness.js';
import { defineScenarioSuite } from './support/scenario-suite.js';

defineScenarioSuite('scenario-prism-proxy', prismProxyHarness);
