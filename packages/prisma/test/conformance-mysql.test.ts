import { describeConformance } from './support/conformance.js';
import { mysqlTarget } from './support/test-databases.js';

describeConformance(mysqlTarget);
