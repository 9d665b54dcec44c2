import { describeConformance } from './support/conformance.js';
import { postgresTarget } from './support/test-databases.js';

describeConformance(postgresTarget);
