/** HMAC-SHA256 request signing (docs/http-api.md "Optional HMAC signing"): verified on intake, made for callbacks. */
export * from './hmac-signature';
