import { SessauthError } from './sessauth-error.js';

/** A refused DBSC proof or bound cookie: 401 `invalid_device_bound_proof`; `reason` goes to the debug log only. */
export class DeviceBoundProofError extends SessauthError {
  override readonly name: string = 'DeviceBoundProofError';
  readonly reason: string;
  constructor(reason: string) {
    super('invalid_device_bound_proof');
    this.reason = reason;
  }
}
