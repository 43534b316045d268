import { main } from '../main.js';

main('compile-filter');
