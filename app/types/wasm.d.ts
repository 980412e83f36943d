/** A `.wasm` file imported by browser code: the bundler's file loader gives its URL. */
declare module '*.wasm' {
  const url: string
  export default url
}
