/**
 * leaflet-draw is a plain script that extends the global `L`, and the bundler runs it as
 * soon as its chunk loads. Importing this module first makes Leaflet itself run (and set
 * `window.L`) before it, whichever route's chunks load first ('L is not defined' otherwise).
 */
import L from 'leaflet'

;(window as unknown as { L: typeof L }).L = L
