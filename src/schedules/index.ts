/**
 * On-call schedules (docs/on-call.md "On-call schedules"): layers of rotations in a time zone, with
 * restrictions and overrides; who is on call at an instant and the shifts over a range.
 */
export { compileLayers, describeParticipant, isIanaTimeZone, localToIso, validateLayers, WEEKDAYS, type Layer, type LayersInput, type Participant, type Weekday } from './layers';
export { layerShifts, shiftBoundary, shiftIndexAt } from './rotation';
export { restrictionIntervals } from './restrictions';
export { onCallAt, segments, shiftsBetween, type OnCall, type Override, type ScheduleRules, type Segment, type Shift } from './timeline';
export { createSchedulesService, parseInstant, type AccountCoverage, type OnCallResult, type OverrideInput, type OverrideResult, type PreviewResult, type ScheduleChange, type ScheduleInput, type ScheduleInUse, type ScheduleResult, type SchedulesService, type ScheduleView } from './service';
export { icsPath, icsUrl } from './ics-url';
export { scheduleCalendar } from './ics';
export { stepNumbers, stepTargets, type StepTargets } from './step-numbers';
export { createOncallWatch, WATCH_POLL_MS, type OncallWatch, type OncallWatchDeps } from './watch';
export { rulesOf, rulesWith } from './rules';
export { COVERAGE_DAYS, MAX_COVERAGE_DAYS, coverageDays, coverageOf, type CoverageGap, type CoverageShift, type ScheduleCoverage, type UnverifiedPerson } from './coverage';
export { readCoverage, type ScheduleCoverageRead } from './coverage-read';
export { COVERAGE_GAUGES_EVERY_MS, createCoverageGauges, type CoverageGauges, type CoverageReading } from './coverage-gauges';
export { HANDOFF_CONFIRM_WITHIN_MS, recordHandoff } from './handoff-record';
