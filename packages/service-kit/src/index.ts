export * from './errors.js';
export * from './config.js';
export * from './logger.js';
export * from './context.js';
export * from './grpc.js';
export * from './pagination.js';
export * from './lifecycle.js';
export * from './roles.js';
