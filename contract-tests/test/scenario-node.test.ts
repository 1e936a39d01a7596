import { nodeHarness } from './support/harness.js';
import { defineScenarioSuite } from './support/scenario-suite.js';

defineScenarioSuite('scenario-node', nodeHarness);
