/** CodeTour export: `.tour` files that walk VS Code through a checkout, step by anchored symbol. */
export { buildTours, formatTour, CODETOUR_SCHEMA, type CodeTour, type CodeTourStep, type TourFile } from './build.js';
