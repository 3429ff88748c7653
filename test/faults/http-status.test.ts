import { faultMatrix } from './matrix.js';

faultMatrix('HTTP status answers with the plain-text bodies of a real node', ['http500', 'http404', 'http405', 'http415', 'http403', 'http503']);
