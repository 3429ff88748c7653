import { faultMatrix } from './matrix.js';

faultMatrix('a body that stops in the middle', ['stall']);
