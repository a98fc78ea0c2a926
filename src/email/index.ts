export { createMailer, mailError, type Mailer, type MailOutcome } from './mailer';
