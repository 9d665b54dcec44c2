export { freePort } from './free-port.js';
export { stopProcess, type StopProcessOptions } from './stop-process.js';
export { waitUntilAnswering, type WaitUntilAnsweringOptions } from './wait-until-answering.js';
