import{a as r,b as e}from"./chunk-S2SV4DS7.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{r as RadarModule,e as createRadarServices};
