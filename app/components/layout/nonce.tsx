import { createContext, useContext } from 'react'

const NonceContext = createContext<string | undefined>(undefined)
export const NonceProvider = NonceContext.Provider
/** The per-request CSP nonce, for inline scripts. */
export const useNonce = () => useContext(NonceContext)
