import{a as e,b as r}from"./chunk-PHMQW7SG.js";import"./chunk-MWUZ53VY.js";import"./chunk-V3YWWTDH.js";export{e as PieModule,r as createPieServices};
