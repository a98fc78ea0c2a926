/**
 * People (docs/on-call.md "People"): who is reached, with their phones in order, SMS numbers,
 * e-mail addresses, language and time zone. The service (service.ts), how others name them
 * (refs.ts), and a person's next phone when one fails (next-phone.ts).
 */
export { createPeopleService, type PeopleService, type PersonResult, type PersonInUse, type PersonRefusal } from './service';
export { namesPerson, personName, LANGUAGES, type PersonInput } from './input';
export { firstTarget, peopleById, personIdsOf, type CallTarget, type PersonRef, type NamesResult } from './refs';
export { leftUnreached, queueNextPhones } from './next-phone';
export { checkOf, queueVerification, recordVerification, verificationResults, type VerifyStart } from './verify';
