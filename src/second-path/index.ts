export { createSecondPath, type IncomingText, type SecondPath, type SecondPathDeps, type SecondPathStatus, type TextPath, type TextResult } from './second-path';
