import{a as r,b as e}from"./chunk-6GTQGJNM.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{r as GitGraphModule,e as createGitGraphServices};
