import { faultMatrix } from './matrix.js';

faultMatrix('no answer before the node deadline', ['headersTimeout']);
