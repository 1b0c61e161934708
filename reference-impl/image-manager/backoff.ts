/** Image pull backoff is client-go's per-key Backoff, shared with CrashLoopBackOff: see ../flowcontrol. */
export * from '../flowcontrol/backoff.js';
