// Files imported `with { type: 'text' }` are embedded in the binary as strings.
declare module '*.toml' {
  const text: string;
  export default text;
}
