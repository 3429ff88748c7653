export * from './errors.js';
export * from './client.js';
export * from './endpoints.js';
export * from './call.js';
