import{a as e,b as r}from"./chunk-OO6OXEJO.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{e as TreemapModule,r as createTreemapServices};
