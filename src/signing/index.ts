/** HMAC-SHA256 request signing (README "Optional HMAC signing"): verified on intake, made for callbacks. */
export * from './hmac-signature';
