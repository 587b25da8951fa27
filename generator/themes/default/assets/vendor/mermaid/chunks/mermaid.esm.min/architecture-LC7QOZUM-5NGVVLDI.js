import{a as e,b as r}from"./chunk-XU3RQ3PZ.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{e as ArchitectureModule,r as createArchitectureServices};
