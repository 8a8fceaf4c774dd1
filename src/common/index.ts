export * from './auth';
export * from './errors';
export * from './image-sniff';
export * from './limits';
export * from './live-protocol';
export * from './messages';
export * from './projects';
export * from './users';
