/**
 * Unicode block ranges for XPath regular expression block escapes (`\p{IsBasicLatin}`), from the
 * Unicode Character Database Blocks.txt (Unicode 14.0), plus the XML Schema 1.0 names of blocks
 * that were renamed since (IsGreek, IsCombiningMarksforSymbols, IsCyrillicSupplementary,
 * IsPrivateUse). Names are matched loosely (case, spaces, hyphens and underscores ignored).
 * @module
 */

const DATA =
  '0000-007F:BasicLatin 0080-00FF:Latin-1Supplement 0100-017F:LatinExtended-A ' +
  '0180-024F:LatinExtended-B 0250-02AF:IPAExtensions 02B0-02FF:SpacingModifierLetters ' +
  '0300-036F:CombiningDiacriticalMarks 0370-03FF:GreekandCoptic 0400-04FF:Cyrillic ' +
  '0500-052F:CyrillicSupplement 0530-058F:Armenian 0590-05FF:Hebrew 0600-06FF:Arabic ' +
  '0700-074F:Syriac 0750-077F:ArabicSupplement 0780-07BF:Thaana 07C0-07FF:NKo 0800-083F:Samaritan ' +
  '0840-085F:Mandaic 0860-086F:SyriacSupplement 0870-089F:ArabicExtended-B ' +
  '08A0-08FF:ArabicExtended-A 0900-097F:Devanagari 0980-09FF:Bengali 0A00-0A7F:Gurmukhi ' +
  '0A80-0AFF:Gujarati 0B00-0B7F:Oriya 0B80-0BFF:Tamil 0C00-0C7F:Telugu 0C80-0CFF:Kannada ' +
  '0D00-0D7F:Malayalam 0D80-0DFF:Sinhala 0E00-0E7F:Thai 0E80-0EFF:Lao 0F00-0FFF:Tibetan ' +
  '1000-109F:Myanmar 10A0-10FF:Georgian 1100-11FF:HangulJamo 1200-137F:Ethiopic ' +
  '1380-139F:EthiopicSupplement 13A0-13FF:Cherokee 1400-167F:UnifiedCanadianAboriginalSyllabics ' +
  '1680-169F:Ogham 16A0-16FF:Runic 1700-171F:Tagalog 1720-173F:Hanunoo 1740-175F:Buhid ' +
  '1760-177F:Tagbanwa 1780-17FF:Khmer 1800-18AF:Mongolian ' +
  '18B0-18FF:UnifiedCanadianAboriginalSyllabicsExtended 1900-194F:Limbu 1950-197F:TaiLe ' +
  '1980-19DF:NewTaiLue 19E0-19FF:KhmerSymbols 1A00-1A1F:Buginese 1A20-1AAF:TaiTham ' +
  '1AB0-1AFF:CombiningDiacriticalMarksExtended 1B00-1B7F:Balinese 1B80-1BBF:Sundanese ' +
  '1BC0-1BFF:Batak 1C00-1C4F:Lepcha 1C50-1C7F:OlChiki 1C80-1C8F:CyrillicExtended-C ' +
  '1C90-1CBF:GeorgianExtended 1CC0-1CCF:SundaneseSupplement 1CD0-1CFF:VedicExtensions ' +
  '1D00-1D7F:PhoneticExtensions 1D80-1DBF:PhoneticExtensionsSupplement ' +
  '1DC0-1DFF:CombiningDiacriticalMarksSupplement 1E00-1EFF:LatinExtendedAdditional ' +
  '1F00-1FFF:GreekExtended 2000-206F:GeneralPunctuation 2070-209F:SuperscriptsandSubscripts ' +
  '20A0-20CF:CurrencySymbols 20D0-20FF:CombiningDiacriticalMarksforSymbols ' +
  '2100-214F:LetterlikeSymbols 2150-218F:NumberForms 2190-21FF:Arrows ' +
  '2200-22FF:MathematicalOperators 2300-23FF:MiscellaneousTechnical 2400-243F:ControlPictures ' +
  '2440-245F:OpticalCharacterRecognition 2460-24FF:EnclosedAlphanumerics 2500-257F:BoxDrawing ' +
  '2580-259F:BlockElements 25A0-25FF:GeometricShapes 2600-26FF:MiscellaneousSymbols ' +
  '2700-27BF:Dingbats 27C0-27EF:MiscellaneousMathematicalSymbols-A 27F0-27FF:SupplementalArrows-A ' +
  '2800-28FF:BraillePatterns 2900-297F:SupplementalArrows-B ' +
  '2980-29FF:MiscellaneousMathematicalSymbols-B 2A00-2AFF:SupplementalMathematicalOperators ' +
  '2B00-2BFF:MiscellaneousSymbolsandArrows 2C00-2C5F:Glagolitic 2C60-2C7F:LatinExtended-C ' +
  '2C80-2CFF:Coptic 2D00-2D2F:GeorgianSupplement 2D30-2D7F:Tifinagh 2D80-2DDF:EthiopicExtended ' +
  '2DE0-2DFF:CyrillicExtended-A 2E00-2E7F:SupplementalPunctuation 2E80-2EFF:CJKRadicalsSupplement ' +
  '2F00-2FDF:KangxiRadicals 2FF0-2FFF:IdeographicDescriptionCharacters ' +
  '3000-303F:CJKSymbolsandPunctuation 3040-309F:Hiragana 30A0-30FF:Katakana 3100-312F:Bopomofo ' +
  '3130-318F:HangulCompatibilityJamo 3190-319F:Kanbun 31A0-31BF:BopomofoExtended ' +
  '31C0-31EF:CJKStrokes 31F0-31FF:KatakanaPhoneticExtensions 3200-32FF:EnclosedCJKLettersandMonths ' +
  '3300-33FF:CJKCompatibility 3400-4DBF:CJKUnifiedIdeographsExtensionA ' +
  '4DC0-4DFF:YijingHexagramSymbols 4E00-9FFF:CJKUnifiedIdeographs A000-A48F:YiSyllables ' +
  'A490-A4CF:YiRadicals A4D0-A4FF:Lisu A500-A63F:Vai A640-A69F:CyrillicExtended-B A6A0-A6FF:Bamum ' +
  'A700-A71F:ModifierToneLetters A720-A7FF:LatinExtended-D A800-A82F:SylotiNagri ' +
  'A830-A83F:CommonIndicNumberForms A840-A87F:Phags-pa A880-A8DF:Saurashtra ' +
  'A8E0-A8FF:DevanagariExtended A900-A92F:KayahLi A930-A95F:Rejang A960-A97F:HangulJamoExtended-A ' +
  'A980-A9DF:Javanese A9E0-A9FF:MyanmarExtended-B AA00-AA5F:Cham AA60-AA7F:MyanmarExtended-A ' +
  'AA80-AADF:TaiViet AAE0-AAFF:MeeteiMayekExtensions AB00-AB2F:EthiopicExtended-A ' +
  'AB30-AB6F:LatinExtended-E AB70-ABBF:CherokeeSupplement ABC0-ABFF:MeeteiMayek ' +
  'AC00-D7AF:HangulSyllables D7B0-D7FF:HangulJamoExtended-B D800-DB7F:HighSurrogates ' +
  'DB80-DBFF:HighPrivateUseSurrogates DC00-DFFF:LowSurrogates E000-F8FF:PrivateUseArea ' +
  'F900-FAFF:CJKCompatibilityIdeographs FB00-FB4F:AlphabeticPresentationForms ' +
  'FB50-FDFF:ArabicPresentationForms-A FE00-FE0F:VariationSelectors FE10-FE1F:VerticalForms ' +
  'FE20-FE2F:CombiningHalfMarks FE30-FE4F:CJKCompatibilityForms FE50-FE6F:SmallFormVariants ' +
  'FE70-FEFF:ArabicPresentationForms-B FF00-FFEF:HalfwidthandFullwidthForms FFF0-FFFF:Specials ' +
  '10000-1007F:LinearBSyllabary 10080-100FF:LinearBIdeograms 10100-1013F:AegeanNumbers ' +
  '10140-1018F:AncientGreekNumbers 10190-101CF:AncientSymbols 101D0-101FF:PhaistosDisc ' +
  '10280-1029F:Lycian 102A0-102DF:Carian 102E0-102FF:CopticEpactNumbers 10300-1032F:OldItalic ' +
  '10330-1034F:Gothic 10350-1037F:OldPermic 10380-1039F:Ugaritic 103A0-103DF:OldPersian ' +
  '10400-1044F:Deseret 10450-1047F:Shavian 10480-104AF:Osmanya 104B0-104FF:Osage ' +
  '10500-1052F:Elbasan 10530-1056F:CaucasianAlbanian 10570-105BF:Vithkuqi 10600-1077F:LinearA ' +
  '10780-107BF:LatinExtended-F 10800-1083F:CypriotSyllabary 10840-1085F:ImperialAramaic ' +
  '10860-1087F:Palmyrene 10880-108AF:Nabataean 108E0-108FF:Hatran 10900-1091F:Phoenician ' +
  '10920-1093F:Lydian 10980-1099F:MeroiticHieroglyphs 109A0-109FF:MeroiticCursive ' +
  '10A00-10A5F:Kharoshthi 10A60-10A7F:OldSouthArabian 10A80-10A9F:OldNorthArabian ' +
  '10AC0-10AFF:Manichaean 10B00-10B3F:Avestan 10B40-10B5F:InscriptionalParthian ' +
  '10B60-10B7F:InscriptionalPahlavi 10B80-10BAF:PsalterPahlavi 10C00-10C4F:OldTurkic ' +
  '10C80-10CFF:OldHungarian 10D00-10D3F:HanifiRohingya 10E60-10E7F:RumiNumeralSymbols ' +
  '10E80-10EBF:Yezidi 10F00-10F2F:OldSogdian 10F30-10F6F:Sogdian 10F70-10FAF:OldUyghur ' +
  '10FB0-10FDF:Chorasmian 10FE0-10FFF:Elymaic 11000-1107F:Brahmi 11080-110CF:Kaithi ' +
  '110D0-110FF:SoraSompeng 11100-1114F:Chakma 11150-1117F:Mahajani 11180-111DF:Sharada ' +
  '111E0-111FF:SinhalaArchaicNumbers 11200-1124F:Khojki 11280-112AF:Multani 112B0-112FF:Khudawadi ' +
  '11300-1137F:Grantha 11400-1147F:Newa 11480-114DF:Tirhuta 11580-115FF:Siddham 11600-1165F:Modi ' +
  '11660-1167F:MongolianSupplement 11680-116CF:Takri 11700-1174F:Ahom 11800-1184F:Dogra ' +
  '118A0-118FF:WarangCiti 11900-1195F:DivesAkuru 119A0-119FF:Nandinagari ' +
  '11A00-11A4F:ZanabazarSquare 11A50-11AAF:Soyombo ' +
  '11AB0-11ABF:UnifiedCanadianAboriginalSyllabicsExtended-A 11AC0-11AFF:PauCinHau ' +
  '11C00-11C6F:Bhaiksuki 11C70-11CBF:Marchen 11D00-11D5F:MasaramGondi 11D60-11DAF:GunjalaGondi ' +
  '11EE0-11EFF:Makasar 11FB0-11FBF:LisuSupplement 11FC0-11FFF:TamilSupplement 12000-123FF:Cuneiform ' +
  '12400-1247F:CuneiformNumbersandPunctuation 12480-1254F:EarlyDynasticCuneiform ' +
  '12F90-12FFF:Cypro-Minoan 13000-1342F:EgyptianHieroglyphs ' +
  '13430-1343F:EgyptianHieroglyphFormatControls 14400-1467F:AnatolianHieroglyphs ' +
  '16800-16A3F:BamumSupplement 16A40-16A6F:Mro 16A70-16ACF:Tangsa 16AD0-16AFF:BassaVah ' +
  '16B00-16B8F:PahawhHmong 16E40-16E9F:Medefaidrin 16F00-16F9F:Miao ' +
  '16FE0-16FFF:IdeographicSymbolsandPunctuation 17000-187FF:Tangut 18800-18AFF:TangutComponents ' +
  '18B00-18CFF:KhitanSmallScript 18D00-18D7F:TangutSupplement 1AFF0-1AFFF:KanaExtended-B ' +
  '1B000-1B0FF:KanaSupplement 1B100-1B12F:KanaExtended-A 1B130-1B16F:SmallKanaExtension ' +
  '1B170-1B2FF:Nushu 1BC00-1BC9F:Duployan 1BCA0-1BCAF:ShorthandFormatControls ' +
  '1CF00-1CFCF:ZnamennyMusicalNotation 1D000-1D0FF:ByzantineMusicalSymbols ' +
  '1D100-1D1FF:MusicalSymbols 1D200-1D24F:AncientGreekMusicalNotation 1D2E0-1D2FF:MayanNumerals ' +
  '1D300-1D35F:TaiXuanJingSymbols 1D360-1D37F:CountingRodNumerals ' +
  '1D400-1D7FF:MathematicalAlphanumericSymbols 1D800-1DAAF:SuttonSignWriting ' +
  '1DF00-1DFFF:LatinExtended-G 1E000-1E02F:GlagoliticSupplement 1E100-1E14F:NyiakengPuachueHmong ' +
  '1E290-1E2BF:Toto 1E2C0-1E2FF:Wancho 1E7E0-1E7FF:EthiopicExtended-B 1E800-1E8DF:MendeKikakui ' +
  '1E900-1E95F:Adlam 1EC70-1ECBF:IndicSiyaqNumbers 1ED00-1ED4F:OttomanSiyaqNumbers ' +
  '1EE00-1EEFF:ArabicMathematicalAlphabeticSymbols 1F000-1F02F:MahjongTiles 1F030-1F09F:DominoTiles ' +
  '1F0A0-1F0FF:PlayingCards 1F100-1F1FF:EnclosedAlphanumericSupplement ' +
  '1F200-1F2FF:EnclosedIdeographicSupplement 1F300-1F5FF:MiscellaneousSymbolsandPictographs ' +
  '1F600-1F64F:Emoticons 1F650-1F67F:OrnamentalDingbats 1F680-1F6FF:TransportandMapSymbols ' +
  '1F700-1F77F:AlchemicalSymbols 1F780-1F7FF:GeometricShapesExtended ' +
  '1F800-1F8FF:SupplementalArrows-C 1F900-1F9FF:SupplementalSymbolsandPictographs ' +
  '1FA00-1FA6F:ChessSymbols 1FA70-1FAFF:SymbolsandPictographsExtended-A ' +
  '1FB00-1FBFF:SymbolsforLegacyComputing 20000-2A6DF:CJKUnifiedIdeographsExtensionB ' +
  '2A700-2B73F:CJKUnifiedIdeographsExtensionC 2B740-2B81F:CJKUnifiedIdeographsExtensionD ' +
  '2B820-2CEAF:CJKUnifiedIdeographsExtensionE 2CEB0-2EBEF:CJKUnifiedIdeographsExtensionF ' +
  '2F800-2FA1F:CJKCompatibilityIdeographsSupplement 30000-3134F:CJKUnifiedIdeographsExtensionG ' +
  'E0000-E007F:Tags E0100-E01EF:VariationSelectorsSupplement ' +
  'F0000-FFFFF:SupplementaryPrivateUseArea-A 100000-10FFFF:SupplementaryPrivateUseArea-B';

/** Loose block-name key: lower case, without spaces, hyphens and underscores. */
export function blockKey(name: string): string {
  return name.replace(/[\s_-]/g, '').toLowerCase();
}

let blocks: Map<string, [number, number][]> | undefined;

/** The table of blocks by key, built from DATA on first use. */
function blockTable(): Map<string, [number, number][]> {
  if (blocks) return blocks;
  blocks = new Map<string, [number, number][]>();
  for (const entry of DATA.split(' ')) {
    const m = /^([0-9A-F]+)-([0-9A-F]+):(.+)$/.exec(entry);
    if (m !== null) blocks.set(blockKey(m[3]!), [[parseInt(m[1]!, 16), parseInt(m[2]!, 16)]]);
  }
  blocks.set(blockKey('Greek'), [[0x370, 0x3ff]]);
  blocks.set(blockKey('CombiningMarksforSymbols'), [[0x20d0, 0x20ff]]);
  blocks.set(blockKey('CyrillicSupplementary'), [[0x500, 0x52f]]);
  blocks.set(blockKey('PrivateUse'), [
    [0xe000, 0xf8ff],
    [0xf0000, 0xfffff],
    [0x100000, 0x10ffff],
  ]);
  return blocks;
}

/** The code point ranges of a Unicode block by (loosely matched) name, or undefined. */
export function unicodeBlock(name: string): readonly (readonly [number, number])[] | undefined {
  return blockTable().get(blockKey(name));
}
