import { faultMatrix } from './matrix.js';

faultMatrix('connections refused or reset, bodies truncated or above the size cap', ['refused', 'reset', 'truncated', 'tooLargeDeclared', 'tooLargeChunked']);
