// Files imported `with { type: 'text' }` (embedded-assets.ts): their text.
declare module '*.css' {
  const text: string;
  export default text;
}
declare module '*/panel.js' {
  const text: string;
  export default text;
}
declare module 'htmx.org/dist/htmx.min.js' {
  const text: string;
  export default text;
}
