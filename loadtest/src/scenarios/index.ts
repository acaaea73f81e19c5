import { peak } from './peak.ts';
import type { Scenario } from './types.ts';

export const SCENARIOS: Scenario[] = [peak];
