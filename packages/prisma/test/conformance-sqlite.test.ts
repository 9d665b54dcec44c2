import { describeConformance } from './support/conformance.js';
import { sqliteTarget } from './support/test-databases.js';

describeConformance(sqliteTarget);
