/** Phone numbers: the forms accepted (numbers.accept), their stored form, and search digits. */
export * from './number';
