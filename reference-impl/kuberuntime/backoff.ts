/** CrashLoopBackOff uses client-go's per-key Backoff, shared with image pulls: see ../flowcontrol. */
export * from '../flowcontrol/backoff.js';
