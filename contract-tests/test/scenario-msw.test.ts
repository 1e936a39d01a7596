import { mswHarness } from './support/harness.js';
import { defineScenarioSuite } from './support/scenario-suite.js';

defineScenarioSuite('scenario-msw', mswHarness);
