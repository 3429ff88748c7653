import { faultMatrix } from './matrix.js';

faultMatrix('unusable JSON-RPC answers', ['invalidJson', 'wrongTypes', 'rpcError', 'idMismatch', 'empty']);
