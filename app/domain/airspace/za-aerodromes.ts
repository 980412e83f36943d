/**
 * Aerodrome reference points (approximate, ~0.001°) for the "within 10 km of an
 * aerodrome" approval warning. One point per aerodrome that has a CTR or ATZ
 * in the shipped national dataset; a unit test checks that each point lies inside its
 * own CTR/ATZ polygon. Small airfields without a CTR/ATZ are not listed.
 * NOT FOR NAVIGATION.
 */
export interface Aerodrome {
  icao: string
  name: string
  latitude: number
  longitude: number
}

export const ZA_AERODROMES: Aerodrome[] = [
  { icao: 'FABE', name: 'Bhisho', latitude: -32.8971, longitude: 27.2791 },
  { icao: 'FABL', name: 'Bloemfontein', latitude: -29.0927, longitude: 26.3024 },
  { icao: 'FACT', name: 'Cape Town International', latitude: -33.9649, longitude: 18.6017 },
  { icao: 'FAEL', name: 'East London', latitude: -33.0356, longitude: 27.8259 },
  { icao: 'FAGC', name: 'Grand Central', latitude: -25.9864, longitude: 28.1401 },
  { icao: 'FAGG', name: 'George', latitude: -34.0056, longitude: 22.3789 },
  { icao: 'FAGM', name: 'Rand', latitude: -26.2425, longitude: 28.1512 },
  { icao: 'FAHS', name: 'Hoedspruit', latitude: -24.3686, longitude: 31.0487 },
  { icao: 'FAKM', name: 'Kimberley', latitude: -28.8028, longitude: 24.7652 },
  { icao: 'FAKN', name: 'Kruger Mpumalanga', latitude: -25.3832, longitude: 31.1056 },
  { icao: 'FALA', name: 'Lanseria', latitude: -25.9385, longitude: 27.9261 },
  { icao: 'FALE', name: 'King Shaka (Durban)', latitude: -29.6144, longitude: 31.1197 },
  { icao: 'FALM', name: 'Makhado', latitude: -23.1599, longitude: 29.6965 },
  { icao: 'FALW', name: 'Langebaanweg', latitude: -32.9689, longitude: 18.1603 },
  { icao: 'FAMM', name: 'Mahikeng', latitude: -25.7984, longitude: 25.548 },
  { icao: 'FAOB', name: 'Overberg', latitude: -34.5549, longitude: 20.2507 },
  { icao: 'FAOR', name: 'O.R. Tambo International', latitude: -26.1392, longitude: 28.246 },
  { icao: 'FAPE', name: 'Gqeberha (Port Elizabeth)', latitude: -33.9849, longitude: 25.6173 },
  { icao: 'FAPM', name: 'Pietermaritzburg', latitude: -29.649, longitude: 30.3987 },
  { icao: 'FAPN', name: 'Pilanesberg', latitude: -25.3338, longitude: 27.1734 },
  { icao: 'FAPP', name: 'Polokwane', latitude: -23.8453, longitude: 29.4586 },
  { icao: 'FARB', name: 'Richards Bay', latitude: -28.741, longitude: 32.0921 },
  { icao: 'FASK', name: 'Swartkop', latitude: -25.8097, longitude: 28.1646 },
  { icao: 'FAUP', name: 'Upington', latitude: -28.401, longitude: 21.2602 },
  { icao: 'FAUT', name: 'Mthatha', latitude: -31.5479, longitude: 28.6743 },
  { icao: 'FAVG', name: 'Virginia (Durban)', latitude: -29.7706, longitude: 31.0584 },
  { icao: 'FAWB', name: 'Wonderboom', latitude: -25.6539, longitude: 28.2242 },
  { icao: 'FAWK', name: 'Waterkloof', latitude: -25.83, longitude: 28.2225 },
  { icao: 'FAYP', name: 'Ysterplaat', latitude: -33.9002, longitude: 18.4983 },
]

/** The warning distance (SA CAR Part 101 as commonly read; check current regulations). */
export const AERODROME_WARNING_KM = 10
