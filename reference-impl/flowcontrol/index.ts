export { Backoff, newBackOff, newFakeBackOff, hasExpired, seededRandom, type RandomSource } from './backoff.js';
