-- isCard
SELECT * FROM (SELECT t1.a0 FROM "p_demand$is^card" t1 WHERE (t1.a0 >= CAST(1 AS BIGINT)) AND (t1.a0 <= CAST(52 AS BIGINT))) u(a0);
-- getSuit$static
SELECT * FROM (SELECT t1.a0, CAST(1 AS BIGINT) FROM "p_demand$get^suit$static" t1, "p_is^card" t2 WHERE t2.a0 = t1.a0 AND (t1.a0 <= CAST(13 AS BIGINT)) UNION ALL SELECT t3.a0, CAST(2 AS BIGINT) FROM "p_demand$get^suit$static" t3, "p_is^card" t4 WHERE t4.a0 = t3.a0 AND (t3.a0 > CAST(13 AS BIGINT)) AND (t3.a0 < CAST(27 AS BIGINT)) UNION ALL SELECT t5.a0, CAST(3 AS BIGINT) FROM "p_demand$get^suit$static" t5, "p_is^card" t6 WHERE t6.a0 = t5.a0 AND (t5.a0 > CAST(26 AS BIGINT)) AND (t5.a0 < CAST(40 AS BIGINT)) UNION ALL SELECT t7.a0, CAST(4 AS BIGINT) FROM "p_demand$get^suit$static" t7, "p_is^card" t8 WHERE t8.a0 = t7.a0 AND (t7.a0 > CAST(39 AS BIGINT))) u(a0, a1);
-- demand$isCard <- getSuit$static#0.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^suit$static" t1;
-- demand$isCard <- getSuit$static#1.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^suit$static" t1;
-- demand$isCard <- getSuit$static#2.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^suit$static" t1;
-- demand$isCard <- getSuit$static#3.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^suit$static" t1;
-- getSuit$world
SELECT DISTINCT * FROM (SELECT t1.w, t1.a2, CAST(0 AS BIGINT) FROM "p_holds" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_is^card" t2 WHERE t2.a0 = t1.a2)) u(w, a0, a1);
-- demand$isCard <- getSuit$world#0.0
SELECT DISTINCT t1.a2 FROM "p_holds" t1;
-- getSuit
SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_demand$get^suit" t1, "p_get^suit$static" t2 WHERE t2.a0 = t1.a0 UNION SELECT t3.w, t3.a0, t4.a1 FROM "p_demand$get^suit" t3, "p_get^suit$world" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0) u(w, a0, a1);
-- demand$getSuit$static <- getSuit#0.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^suit" t1;
-- getValue$static
SELECT * FROM (SELECT t1.a0, ((((t1.a0) % NULLIF(CAST(13 AS BIGINT), 0)) + NULLIF(CAST(13 AS BIGINT), 0)) % NULLIF(CAST(13 AS BIGINT), 0)) FROM "p_demand$get^value$static" t1, "p_is^card" t2 WHERE t2.a0 = t1.a0 AND (((((t1.a0) % NULLIF(CAST(13 AS BIGINT), 0)) + NULLIF(CAST(13 AS BIGINT), 0)) % NULLIF(CAST(13 AS BIGINT), 0)) <> CAST(0 AS BIGINT)) UNION SELECT t3.a0, CAST(13 AS BIGINT) FROM "p_demand$get^value$static" t3, "p_is^card" t4 WHERE t4.a0 = t3.a0 AND (((((t3.a0) % NULLIF(CAST(13 AS BIGINT), 0)) + NULLIF(CAST(13 AS BIGINT), 0)) % NULLIF(CAST(13 AS BIGINT), 0)) = CAST(0 AS BIGINT))) u(a0, a1);
-- demand$isCard <- getValue$static#0.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^value$static" t1;
-- demand$isCard <- getValue$static#1.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^value$static" t1;
-- getValue$world
SELECT DISTINCT * FROM (SELECT t1.w, t1.a2, CAST(0 AS BIGINT) FROM "p_holds" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_is^card" t2 WHERE t2.a0 = t1.a2)) u(w, a0, a1);
-- demand$isCard <- getValue$world#0.0
SELECT DISTINCT t1.a2 FROM "p_holds" t1;
-- getValue
SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_demand$get^value" t1, "p_get^value$static" t2 WHERE t2.a0 = t1.a0 UNION SELECT t3.w, t3.a0, t4.a1 FROM "p_demand$get^value" t3, "p_get^value$world" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0) u(w, a0, a1);
-- demand$getValue$static <- getValue#0.0
SELECT DISTINCT t1.a0 FROM "p_demand$get^value" t1;
-- suitName
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(61 AS BIGINT), CAST(62 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(46 AS BIGINT), CAST(47 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(44 AS BIGINT), CAST(45 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(87 AS BIGINT), CAST(88 AS BIGINT)) u(a0, a1, a2);
-- suitSymbol
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(23 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(20 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(19 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(28 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(1 AS BIGINT), CAST(110 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(111 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(108 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(105 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(1 AS BIGINT), CAST(106 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(107 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(112 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(109 AS BIGINT), CAST(2 AS BIGINT)) u(a0, a1, a2);
-- valueName
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(40 AS BIGINT), CAST(41 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(102 AS BIGINT), CAST(104 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(98 AS BIGINT), CAST(100 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(55 AS BIGINT), CAST(57 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT), CAST(52 AS BIGINT), CAST(53 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(85 AS BIGINT), CAST(86 AS BIGINT) UNION ALL SELECT CAST(7 AS BIGINT), CAST(83 AS BIGINT), CAST(84 AS BIGINT) UNION ALL SELECT CAST(8 AS BIGINT), CAST(48 AS BIGINT), CAST(50 AS BIGINT) UNION ALL SELECT CAST(9 AS BIGINT), CAST(73 AS BIGINT), CAST(74 AS BIGINT) UNION ALL SELECT CAST(10 AS BIGINT), CAST(94 AS BIGINT), CAST(95 AS BIGINT) UNION ALL SELECT CAST(11 AS BIGINT), CAST(67 AS BIGINT), CAST(68 AS BIGINT) UNION ALL SELECT CAST(12 AS BIGINT), CAST(79 AS BIGINT), CAST(80 AS BIGINT) UNION ALL SELECT CAST(13 AS BIGINT), CAST(69 AS BIGINT), CAST(70 AS BIGINT)) u(a0, a1, a2);
-- valueSymbol
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(18 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(4 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(6 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(8 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT), CAST(13 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(14 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(7 AS BIGINT), CAST(15 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(8 AS BIGINT), CAST(16 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(9 AS BIGINT), CAST(17 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(10 AS BIGINT), CAST(31 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(10 AS BIGINT), CAST(2 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(11 AS BIGINT), CAST(24 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(12 AS BIGINT), CAST(26 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(13 AS BIGINT), CAST(25 AS BIGINT), CAST(0 AS BIGINT)) u(a0, a1, a2);
-- rangeOrder
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(14 AS BIGINT) UNION SELECT t1.a0, t1.a0 FROM "p_value^name" t1 WHERE (t1.a0 > CAST(1 AS BIGINT))) u(a0, a1);
-- cardId
SELECT DISTINCT * FROM (SELECT ((CAST(13 AS BIGINT) * (t2.a0 - CAST(1 AS BIGINT))) + t1.a0), t1.a0, t2.a0 FROM "p_value^name" t1, "p_suit^name" t2) u(a0, a1, a2);
-- member
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_holds" t1) u(w, a0, a1);
-- shareCard
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$share^card" t1, "p_member" t2, "p_member" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1 AND t3.a1 = t2.a1) u(w, a0, a1);
-- handSize
SELECT * FROM (SELECT CAST(5 AS BIGINT)) u(a0);
-- duplicate
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_holds" t1, "p_holds" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a2 = t1.a2 AND (t1.a1 <> t2.a1)) u(w, a0);
-- foreign
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_member" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_is^card" t2 WHERE t2.a0 = t1.a1)) u(w, a0);
-- demand$isCard <- foreign#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- isSetCard
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_declared" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_duplicate" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) AND NOT EXISTS (SELECT 1 FROM "p_foreign" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a0)) u(w, a0);
-- cardCount
SELECT w, a0, count(*) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_is^set^card" t1, "p_member" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) s(w, a0, v)) g GROUP BY w, a0;
-- hasCard
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_member" t1) u(w, a0);
-- isEmpty
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_declared" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_has^card" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0)) u(w, a0);
-- size
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_card^count" t1 UNION SELECT t2.w, t2.a0, CAST(0 AS BIGINT) FROM "p_is^empty" t2) u(w, a0, a1);
-- isHand
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_is^set^card" t1, "p_size" t2, "p_hand^size" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1) u(w, a0);
-- validFighting
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$valid^fighting" t1, "p_is^hand" t2, "p_is^hand" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1 AND NOT EXISTS (SELECT 1 FROM "p_share^card" t4 WHERE t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t1.a1)) u(w, a0, a1);
-- demand$shareCard <- validFighting#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$valid^fighting" t1, "p_is^hand" t2, "p_is^hand" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1;
-- hasValue
SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_member" t1, "p_get^value$static" t2 WHERE t2.a0 = t1.a1 UNION SELECT t3.w, t3.a0, t4.a1 FROM "p_member" t3, "p_get^value$world" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a1) u(w, a0, a1);
-- demand$getValue$static <- hasValue#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- isA
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_is^set^card" t1, "p_has^value" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = CAST(1 AS BIGINT)) u(w, a0);
-- isK
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_is^set^card" t1, "p_has^value" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = CAST(13 AS BIGINT)) u(w, a0);
-- aceAndKing
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_is^a" t1, "p_is^k" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) u(w, a0);
-- mixedSuits
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_member" t1, "p_get^suit$static" t2, "p_member" t3, "p_get^suit$static" t4 WHERE t2.a0 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.a0 = t3.a1 AND (t2.a1 <> t4.a1) UNION SELECT t5.w, t5.a0 FROM "p_member" t5, "p_get^suit$static" t6, "p_member" t7, "p_get^suit$world" t8 WHERE t6.a0 = t5.a1 AND t7.w = t5.w AND t7.a0 = t5.a0 AND t8.w = t5.w AND t8.a0 = t7.a1 AND (t6.a1 <> t8.a1) UNION SELECT t9.w, t9.a0 FROM "p_member" t9, "p_get^suit$world" t10, "p_member" t11, "p_get^suit$static" t12 WHERE t10.w = t9.w AND t10.a0 = t9.a1 AND t11.w = t9.w AND t11.a0 = t9.a0 AND t12.a0 = t11.a1 AND (t10.a1 <> t12.a1) UNION SELECT t13.w, t13.a0 FROM "p_member" t13, "p_get^suit$world" t14, "p_member" t15, "p_get^suit$world" t16 WHERE t14.w = t13.w AND t14.a0 = t13.a1 AND t15.w = t13.w AND t15.a0 = t13.a0 AND t16.w = t13.w AND t16.a0 = t15.a1 AND (t14.a1 <> t16.a1)) u(w, a0);
-- demand$getSuit$static <- mixedSuits#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getSuit$static <- mixedSuits#0.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getSuit$static <- mixedSuits#1.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getSuit$static <- mixedSuits#2.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- isFlush
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_is^hand" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_mixed^suits" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0)) u(w, a0);
-- pairOf
SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_member" t1, "p_get^value$static" t2, "p_member" t3, "p_get^value$static" t4 WHERE t2.a0 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND (t1.a1 <> t3.a1) AND t4.a0 = t3.a1 AND t4.a1 = t2.a1 UNION SELECT t5.w, t5.a0, t6.a1 FROM "p_member" t5, "p_get^value$static" t6, "p_member" t7, "p_get^value$world" t8 WHERE t6.a0 = t5.a1 AND t7.w = t5.w AND t7.a0 = t5.a0 AND (t5.a1 <> t7.a1) AND t8.w = t5.w AND t8.a0 = t7.a1 AND t8.a1 = t6.a1 UNION SELECT t9.w, t9.a0, t10.a1 FROM "p_member" t9, "p_get^value$world" t10, "p_member" t11, "p_get^value$static" t12 WHERE t10.w = t9.w AND t10.a0 = t9.a1 AND t11.w = t9.w AND t11.a0 = t9.a0 AND (t9.a1 <> t11.a1) AND t12.a0 = t11.a1 AND t12.a1 = t10.a1 UNION SELECT t13.w, t13.a0, t14.a1 FROM "p_member" t13, "p_get^value$world" t14, "p_member" t15, "p_get^value$world" t16 WHERE t14.w = t13.w AND t14.a0 = t13.a1 AND t15.w = t13.w AND t15.a0 = t13.a0 AND (t13.a1 <> t15.a1) AND t16.w = t13.w AND t16.a0 = t15.a1 AND t16.a1 = t14.a1) u(w, a0, a1);
-- demand$getValue$static <- pairOf#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- pairOf#0.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- pairOf#1.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- pairOf#2.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- threeOf
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_pair^of" t1, "p_member" t2, "p_get^value$static" t3, "p_member" t4, "p_get^value$static" t5, "p_member" t6, "p_get^value$static" t7 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1 AND t3.a1 = t1.a1 AND t4.w = t1.w AND t4.a0 = t1.a0 AND (t2.a1 <> t4.a1) AND t5.a0 = t4.a1 AND t5.a1 = t1.a1 AND t6.w = t1.w AND t6.a0 = t1.a0 AND (t6.a1 <> t2.a1) AND (t6.a1 <> t4.a1) AND t7.a0 = t6.a1 AND t7.a1 = t1.a1 UNION SELECT t8.w, t8.a0, t8.a1 FROM "p_pair^of" t8, "p_member" t9, "p_get^value$static" t10, "p_member" t11, "p_get^value$static" t12, "p_member" t13, "p_get^value$world" t14 WHERE t9.w = t8.w AND t9.a0 = t8.a0 AND t10.a0 = t9.a1 AND t10.a1 = t8.a1 AND t11.w = t8.w AND t11.a0 = t8.a0 AND (t9.a1 <> t11.a1) AND t12.a0 = t11.a1 AND t12.a1 = t8.a1 AND t13.w = t8.w AND t13.a0 = t8.a0 AND (t13.a1 <> t9.a1) AND (t13.a1 <> t11.a1) AND t14.w = t8.w AND t14.a0 = t13.a1 AND t14.a1 = t8.a1 UNION SELECT t15.w, t15.a0, t15.a1 FROM "p_pair^of" t15, "p_member" t16, "p_get^value$static" t17, "p_member" t18, "p_get^value$world" t19, "p_member" t20, "p_get^value$static" t21 WHERE t16.w = t15.w AND t16.a0 = t15.a0 AND t17.a0 = t16.a1 AND t17.a1 = t15.a1 AND t18.w = t15.w AND t18.a0 = t15.a0 AND (t16.a1 <> t18.a1) AND t19.w = t15.w AND t19.a0 = t18.a1 AND t19.a1 = t15.a1 AND t20.w = t15.w AND t20.a0 = t15.a0 AND (t20.a1 <> t16.a1) AND (t20.a1 <> t18.a1) AND t21.a0 = t20.a1 AND t21.a1 = t15.a1 UNION SELECT t22.w, t22.a0, t22.a1 FROM "p_pair^of" t22, "p_member" t23, "p_get^value$static" t24, "p_member" t25, "p_get^value$world" t26, "p_member" t27, "p_get^value$world" t28 WHERE t23.w = t22.w AND t23.a0 = t22.a0 AND t24.a0 = t23.a1 AND t24.a1 = t22.a1 AND t25.w = t22.w AND t25.a0 = t22.a0 AND (t23.a1 <> t25.a1) AND t26.w = t22.w AND t26.a0 = t25.a1 AND t26.a1 = t22.a1 AND t27.w = t22.w AND t27.a0 = t22.a0 AND (t27.a1 <> t23.a1) AND (t27.a1 <> t25.a1) AND t28.w = t22.w AND t28.a0 = t27.a1 AND t28.a1 = t22.a1 UNION SELECT t29.w, t29.a0, t29.a1 FROM "p_pair^of" t29, "p_member" t30, "p_get^value$world" t31, "p_member" t32, "p_get^value$static" t33, "p_member" t34, "p_get^value$static" t35 WHERE t30.w = t29.w AND t30.a0 = t29.a0 AND t31.w = t29.w AND t31.a0 = t30.a1 AND t31.a1 = t29.a1 AND t32.w = t29.w AND t32.a0 = t29.a0 AND (t30.a1 <> t32.a1) AND t33.a0 = t32.a1 AND t33.a1 = t29.a1 AND t34.w = t29.w AND t34.a0 = t29.a0 AND (t34.a1 <> t30.a1) AND (t34.a1 <> t32.a1) AND t35.a0 = t34.a1 AND t35.a1 = t29.a1 UNION SELECT t36.w, t36.a0, t36.a1 FROM "p_pair^of" t36, "p_member" t37, "p_get^value$world" t38, "p_member" t39, "p_get^value$static" t40, "p_member" t41, "p_get^value$world" t42 WHERE t37.w = t36.w AND t37.a0 = t36.a0 AND t38.w = t36.w AND t38.a0 = t37.a1 AND t38.a1 = t36.a1 AND t39.w = t36.w AND t39.a0 = t36.a0 AND (t37.a1 <> t39.a1) AND t40.a0 = t39.a1 AND t40.a1 = t36.a1 AND t41.w = t36.w AND t41.a0 = t36.a0 AND (t41.a1 <> t37.a1) AND (t41.a1 <> t39.a1) AND t42.w = t36.w AND t42.a0 = t41.a1 AND t42.a1 = t36.a1 UNION SELECT t43.w, t43.a0, t43.a1 FROM "p_pair^of" t43, "p_member" t44, "p_get^value$world" t45, "p_member" t46, "p_get^value$world" t47, "p_member" t48, "p_get^value$static" t49 WHERE t44.w = t43.w AND t44.a0 = t43.a0 AND t45.w = t43.w AND t45.a0 = t44.a1 AND t45.a1 = t43.a1 AND t46.w = t43.w AND t46.a0 = t43.a0 AND (t44.a1 <> t46.a1) AND t47.w = t43.w AND t47.a0 = t46.a1 AND t47.a1 = t43.a1 AND t48.w = t43.w AND t48.a0 = t43.a0 AND (t48.a1 <> t44.a1) AND (t48.a1 <> t46.a1) AND t49.a0 = t48.a1 AND t49.a1 = t43.a1 UNION SELECT t50.w, t50.a0, t50.a1 FROM "p_pair^of" t50, "p_member" t51, "p_get^value$world" t52, "p_member" t53, "p_get^value$world" t54, "p_member" t55, "p_get^value$world" t56 WHERE t51.w = t50.w AND t51.a0 = t50.a0 AND t52.w = t50.w AND t52.a0 = t51.a1 AND t52.a1 = t50.a1 AND t53.w = t50.w AND t53.a0 = t50.a0 AND (t51.a1 <> t53.a1) AND t54.w = t50.w AND t54.a0 = t53.a1 AND t54.a1 = t50.a1 AND t55.w = t50.w AND t55.a0 = t50.a0 AND (t55.a1 <> t51.a1) AND (t55.a1 <> t53.a1) AND t56.w = t50.w AND t56.a0 = t55.a1 AND t56.a1 = t50.a1) u(w, a0, a1);
-- demand$getValue$static <- threeOf#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#0.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#0.2
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#1.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#1.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#2.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#2.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#3.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#4.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#4.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#5.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- threeOf#6.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- isFour
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_is^set^card" t1, "p_three^of" t2, "p_member" t3, "p_get^value$static" t4, "p_member" t5, "p_get^value$static" t6, "p_member" t7, "p_get^value$static" t8, "p_member" t9, "p_get^value$static" t10 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.a0 = t3.a1 AND t4.a1 = t2.a1 AND t5.w = t1.w AND t5.a0 = t1.a0 AND (t5.a1 <> t3.a1) AND t6.a0 = t5.a1 AND t6.a1 = t2.a1 AND t7.w = t1.w AND t7.a0 = t1.a0 AND (t7.a1 <> t3.a1) AND (t7.a1 <> t5.a1) AND t8.a0 = t7.a1 AND t8.a1 = t2.a1 AND t9.w = t1.w AND t9.a0 = t1.a0 AND (t9.a1 <> t3.a1) AND (t9.a1 <> t5.a1) AND (t9.a1 <> t7.a1) AND t10.a0 = t9.a1 AND t10.a1 = t2.a1 UNION SELECT t11.w, t11.a0 FROM "p_is^set^card" t11, "p_three^of" t12, "p_member" t13, "p_get^value$static" t14, "p_member" t15, "p_get^value$static" t16, "p_member" t17, "p_get^value$static" t18, "p_member" t19, "p_get^value$world" t20 WHERE t12.w = t11.w AND t12.a0 = t11.a0 AND t13.w = t11.w AND t13.a0 = t11.a0 AND t14.a0 = t13.a1 AND t14.a1 = t12.a1 AND t15.w = t11.w AND t15.a0 = t11.a0 AND (t15.a1 <> t13.a1) AND t16.a0 = t15.a1 AND t16.a1 = t12.a1 AND t17.w = t11.w AND t17.a0 = t11.a0 AND (t17.a1 <> t13.a1) AND (t17.a1 <> t15.a1) AND t18.a0 = t17.a1 AND t18.a1 = t12.a1 AND t19.w = t11.w AND t19.a0 = t11.a0 AND (t19.a1 <> t13.a1) AND (t19.a1 <> t15.a1) AND (t19.a1 <> t17.a1) AND t20.w = t11.w AND t20.a0 = t19.a1 AND t20.a1 = t12.a1 UNION SELECT t21.w, t21.a0 FROM "p_is^set^card" t21, "p_three^of" t22, "p_member" t23, "p_get^value$static" t24, "p_member" t25, "p_get^value$static" t26, "p_member" t27, "p_get^value$world" t28, "p_member" t29, "p_get^value$static" t30 WHERE t22.w = t21.w AND t22.a0 = t21.a0 AND t23.w = t21.w AND t23.a0 = t21.a0 AND t24.a0 = t23.a1 AND t24.a1 = t22.a1 AND t25.w = t21.w AND t25.a0 = t21.a0 AND (t25.a1 <> t23.a1) AND t26.a0 = t25.a1 AND t26.a1 = t22.a1 AND t27.w = t21.w AND t27.a0 = t21.a0 AND (t27.a1 <> t23.a1) AND (t27.a1 <> t25.a1) AND t28.w = t21.w AND t28.a0 = t27.a1 AND t28.a1 = t22.a1 AND t29.w = t21.w AND t29.a0 = t21.a0 AND (t29.a1 <> t23.a1) AND (t29.a1 <> t25.a1) AND (t29.a1 <> t27.a1) AND t30.a0 = t29.a1 AND t30.a1 = t22.a1 UNION SELECT t31.w, t31.a0 FROM "p_is^set^card" t31, "p_three^of" t32, "p_member" t33, "p_get^value$static" t34, "p_member" t35, "p_get^value$static" t36, "p_member" t37, "p_get^value$world" t38, "p_member" t39, "p_get^value$world" t40 WHERE t32.w = t31.w AND t32.a0 = t31.a0 AND t33.w = t31.w AND t33.a0 = t31.a0 AND t34.a0 = t33.a1 AND t34.a1 = t32.a1 AND t35.w = t31.w AND t35.a0 = t31.a0 AND (t35.a1 <> t33.a1) AND t36.a0 = t35.a1 AND t36.a1 = t32.a1 AND t37.w = t31.w AND t37.a0 = t31.a0 AND (t37.a1 <> t33.a1) AND (t37.a1 <> t35.a1) AND t38.w = t31.w AND t38.a0 = t37.a1 AND t38.a1 = t32.a1 AND t39.w = t31.w AND t39.a0 = t31.a0 AND (t39.a1 <> t33.a1) AND (t39.a1 <> t35.a1) AND (t39.a1 <> t37.a1) AND t40.w = t31.w AND t40.a0 = t39.a1 AND t40.a1 = t32.a1 UNION SELECT t41.w, t41.a0 FROM "p_is^set^card" t41, "p_three^of" t42, "p_member" t43, "p_get^value$static" t44, "p_member" t45, "p_get^value$world" t46, "p_member" t47, "p_get^value$static" t48, "p_member" t49, "p_get^value$static" t50 WHERE t42.w = t41.w AND t42.a0 = t41.a0 AND t43.w = t41.w AND t43.a0 = t41.a0 AND t44.a0 = t43.a1 AND t44.a1 = t42.a1 AND t45.w = t41.w AND t45.a0 = t41.a0 AND (t45.a1 <> t43.a1) AND t46.w = t41.w AND t46.a0 = t45.a1 AND t46.a1 = t42.a1 AND t47.w = t41.w AND t47.a0 = t41.a0 AND (t47.a1 <> t43.a1) AND (t47.a1 <> t45.a1) AND t48.a0 = t47.a1 AND t48.a1 = t42.a1 AND t49.w = t41.w AND t49.a0 = t41.a0 AND (t49.a1 <> t43.a1) AND (t49.a1 <> t45.a1) AND (t49.a1 <> t47.a1) AND t50.a0 = t49.a1 AND t50.a1 = t42.a1 UNION SELECT t51.w, t51.a0 FROM "p_is^set^card" t51, "p_three^of" t52, "p_member" t53, "p_get^value$static" t54, "p_member" t55, "p_get^value$world" t56, "p_member" t57, "p_get^value$static" t58, "p_member" t59, "p_get^value$world" t60 WHERE t52.w = t51.w AND t52.a0 = t51.a0 AND t53.w = t51.w AND t53.a0 = t51.a0 AND t54.a0 = t53.a1 AND t54.a1 = t52.a1 AND t55.w = t51.w AND t55.a0 = t51.a0 AND (t55.a1 <> t53.a1) AND t56.w = t51.w AND t56.a0 = t55.a1 AND t56.a1 = t52.a1 AND t57.w = t51.w AND t57.a0 = t51.a0 AND (t57.a1 <> t53.a1) AND (t57.a1 <> t55.a1) AND t58.a0 = t57.a1 AND t58.a1 = t52.a1 AND t59.w = t51.w AND t59.a0 = t51.a0 AND (t59.a1 <> t53.a1) AND (t59.a1 <> t55.a1) AND (t59.a1 <> t57.a1) AND t60.w = t51.w AND t60.a0 = t59.a1 AND t60.a1 = t52.a1 UNION SELECT t61.w, t61.a0 FROM "p_is^set^card" t61, "p_three^of" t62, "p_member" t63, "p_get^value$static" t64, "p_member" t65, "p_get^value$world" t66, "p_member" t67, "p_get^value$world" t68, "p_member" t69, "p_get^value$static" t70 WHERE t62.w = t61.w AND t62.a0 = t61.a0 AND t63.w = t61.w AND t63.a0 = t61.a0 AND t64.a0 = t63.a1 AND t64.a1 = t62.a1 AND t65.w = t61.w AND t65.a0 = t61.a0 AND (t65.a1 <> t63.a1) AND t66.w = t61.w AND t66.a0 = t65.a1 AND t66.a1 = t62.a1 AND t67.w = t61.w AND t67.a0 = t61.a0 AND (t67.a1 <> t63.a1) AND (t67.a1 <> t65.a1) AND t68.w = t61.w AND t68.a0 = t67.a1 AND t68.a1 = t62.a1 AND t69.w = t61.w AND t69.a0 = t61.a0 AND (t69.a1 <> t63.a1) AND (t69.a1 <> t65.a1) AND (t69.a1 <> t67.a1) AND t70.a0 = t69.a1 AND t70.a1 = t62.a1 UNION SELECT t71.w, t71.a0 FROM "p_is^set^card" t71, "p_three^of" t72, "p_member" t73, "p_get^value$static" t74, "p_member" t75, "p_get^value$world" t76, "p_member" t77, "p_get^value$world" t78, "p_member" t79, "p_get^value$world" t80 WHERE t72.w = t71.w AND t72.a0 = t71.a0 AND t73.w = t71.w AND t73.a0 = t71.a0 AND t74.a0 = t73.a1 AND t74.a1 = t72.a1 AND t75.w = t71.w AND t75.a0 = t71.a0 AND (t75.a1 <> t73.a1) AND t76.w = t71.w AND t76.a0 = t75.a1 AND t76.a1 = t72.a1 AND t77.w = t71.w AND t77.a0 = t71.a0 AND (t77.a1 <> t73.a1) AND (t77.a1 <> t75.a1) AND t78.w = t71.w AND t78.a0 = t77.a1 AND t78.a1 = t72.a1 AND t79.w = t71.w AND t79.a0 = t71.a0 AND (t79.a1 <> t73.a1) AND (t79.a1 <> t75.a1) AND (t79.a1 <> t77.a1) AND t80.w = t71.w AND t80.a0 = t79.a1 AND t80.a1 = t72.a1 UNION SELECT t81.w, t81.a0 FROM "p_is^set^card" t81, "p_three^of" t82, "p_member" t83, "p_get^value$world" t84, "p_member" t85, "p_get^value$static" t86, "p_member" t87, "p_get^value$static" t88, "p_member" t89, "p_get^value$static" t90 WHERE t82.w = t81.w AND t82.a0 = t81.a0 AND t83.w = t81.w AND t83.a0 = t81.a0 AND t84.w = t81.w AND t84.a0 = t83.a1 AND t84.a1 = t82.a1 AND t85.w = t81.w AND t85.a0 = t81.a0 AND (t85.a1 <> t83.a1) AND t86.a0 = t85.a1 AND t86.a1 = t82.a1 AND t87.w = t81.w AND t87.a0 = t81.a0 AND (t87.a1 <> t83.a1) AND (t87.a1 <> t85.a1) AND t88.a0 = t87.a1 AND t88.a1 = t82.a1 AND t89.w = t81.w AND t89.a0 = t81.a0 AND (t89.a1 <> t83.a1) AND (t89.a1 <> t85.a1) AND (t89.a1 <> t87.a1) AND t90.a0 = t89.a1 AND t90.a1 = t82.a1 UNION SELECT t91.w, t91.a0 FROM "p_is^set^card" t91, "p_three^of" t92, "p_member" t93, "p_get^value$world" t94, "p_member" t95, "p_get^value$static" t96, "p_member" t97, "p_get^value$static" t98, "p_member" t99, "p_get^value$world" t100 WHERE t92.w = t91.w AND t92.a0 = t91.a0 AND t93.w = t91.w AND t93.a0 = t91.a0 AND t94.w = t91.w AND t94.a0 = t93.a1 AND t94.a1 = t92.a1 AND t95.w = t91.w AND t95.a0 = t91.a0 AND (t95.a1 <> t93.a1) AND t96.a0 = t95.a1 AND t96.a1 = t92.a1 AND t97.w = t91.w AND t97.a0 = t91.a0 AND (t97.a1 <> t93.a1) AND (t97.a1 <> t95.a1) AND t98.a0 = t97.a1 AND t98.a1 = t92.a1 AND t99.w = t91.w AND t99.a0 = t91.a0 AND (t99.a1 <> t93.a1) AND (t99.a1 <> t95.a1) AND (t99.a1 <> t97.a1) AND t100.w = t91.w AND t100.a0 = t99.a1 AND t100.a1 = t92.a1 UNION SELECT t101.w, t101.a0 FROM "p_is^set^card" t101, "p_three^of" t102, "p_member" t103, "p_get^value$world" t104, "p_member" t105, "p_get^value$static" t106, "p_member" t107, "p_get^value$world" t108, "p_member" t109, "p_get^value$static" t110 WHERE t102.w = t101.w AND t102.a0 = t101.a0 AND t103.w = t101.w AND t103.a0 = t101.a0 AND t104.w = t101.w AND t104.a0 = t103.a1 AND t104.a1 = t102.a1 AND t105.w = t101.w AND t105.a0 = t101.a0 AND (t105.a1 <> t103.a1) AND t106.a0 = t105.a1 AND t106.a1 = t102.a1 AND t107.w = t101.w AND t107.a0 = t101.a0 AND (t107.a1 <> t103.a1) AND (t107.a1 <> t105.a1) AND t108.w = t101.w AND t108.a0 = t107.a1 AND t108.a1 = t102.a1 AND t109.w = t101.w AND t109.a0 = t101.a0 AND (t109.a1 <> t103.a1) AND (t109.a1 <> t105.a1) AND (t109.a1 <> t107.a1) AND t110.a0 = t109.a1 AND t110.a1 = t102.a1 UNION SELECT t111.w, t111.a0 FROM "p_is^set^card" t111, "p_three^of" t112, "p_member" t113, "p_get^value$world" t114, "p_member" t115, "p_get^value$static" t116, "p_member" t117, "p_get^value$world" t118, "p_member" t119, "p_get^value$world" t120 WHERE t112.w = t111.w AND t112.a0 = t111.a0 AND t113.w = t111.w AND t113.a0 = t111.a0 AND t114.w = t111.w AND t114.a0 = t113.a1 AND t114.a1 = t112.a1 AND t115.w = t111.w AND t115.a0 = t111.a0 AND (t115.a1 <> t113.a1) AND t116.a0 = t115.a1 AND t116.a1 = t112.a1 AND t117.w = t111.w AND t117.a0 = t111.a0 AND (t117.a1 <> t113.a1) AND (t117.a1 <> t115.a1) AND t118.w = t111.w AND t118.a0 = t117.a1 AND t118.a1 = t112.a1 AND t119.w = t111.w AND t119.a0 = t111.a0 AND (t119.a1 <> t113.a1) AND (t119.a1 <> t115.a1) AND (t119.a1 <> t117.a1) AND t120.w = t111.w AND t120.a0 = t119.a1 AND t120.a1 = t112.a1 UNION SELECT t121.w, t121.a0 FROM "p_is^set^card" t121, "p_three^of" t122, "p_member" t123, "p_get^value$world" t124, "p_member" t125, "p_get^value$world" t126, "p_member" t127, "p_get^value$static" t128, "p_member" t129, "p_get^value$static" t130 WHERE t122.w = t121.w AND t122.a0 = t121.a0 AND t123.w = t121.w AND t123.a0 = t121.a0 AND t124.w = t121.w AND t124.a0 = t123.a1 AND t124.a1 = t122.a1 AND t125.w = t121.w AND t125.a0 = t121.a0 AND (t125.a1 <> t123.a1) AND t126.w = t121.w AND t126.a0 = t125.a1 AND t126.a1 = t122.a1 AND t127.w = t121.w AND t127.a0 = t121.a0 AND (t127.a1 <> t123.a1) AND (t127.a1 <> t125.a1) AND t128.a0 = t127.a1 AND t128.a1 = t122.a1 AND t129.w = t121.w AND t129.a0 = t121.a0 AND (t129.a1 <> t123.a1) AND (t129.a1 <> t125.a1) AND (t129.a1 <> t127.a1) AND t130.a0 = t129.a1 AND t130.a1 = t122.a1 UNION SELECT t131.w, t131.a0 FROM "p_is^set^card" t131, "p_three^of" t132, "p_member" t133, "p_get^value$world" t134, "p_member" t135, "p_get^value$world" t136, "p_member" t137, "p_get^value$static" t138, "p_member" t139, "p_get^value$world" t140 WHERE t132.w = t131.w AND t132.a0 = t131.a0 AND t133.w = t131.w AND t133.a0 = t131.a0 AND t134.w = t131.w AND t134.a0 = t133.a1 AND t134.a1 = t132.a1 AND t135.w = t131.w AND t135.a0 = t131.a0 AND (t135.a1 <> t133.a1) AND t136.w = t131.w AND t136.a0 = t135.a1 AND t136.a1 = t132.a1 AND t137.w = t131.w AND t137.a0 = t131.a0 AND (t137.a1 <> t133.a1) AND (t137.a1 <> t135.a1) AND t138.a0 = t137.a1 AND t138.a1 = t132.a1 AND t139.w = t131.w AND t139.a0 = t131.a0 AND (t139.a1 <> t133.a1) AND (t139.a1 <> t135.a1) AND (t139.a1 <> t137.a1) AND t140.w = t131.w AND t140.a0 = t139.a1 AND t140.a1 = t132.a1 UNION SELECT t141.w, t141.a0 FROM "p_is^set^card" t141, "p_three^of" t142, "p_member" t143, "p_get^value$world" t144, "p_member" t145, "p_get^value$world" t146, "p_member" t147, "p_get^value$world" t148, "p_member" t149, "p_get^value$static" t150 WHERE t142.w = t141.w AND t142.a0 = t141.a0 AND t143.w = t141.w AND t143.a0 = t141.a0 AND t144.w = t141.w AND t144.a0 = t143.a1 AND t144.a1 = t142.a1 AND t145.w = t141.w AND t145.a0 = t141.a0 AND (t145.a1 <> t143.a1) AND t146.w = t141.w AND t146.a0 = t145.a1 AND t146.a1 = t142.a1 AND t147.w = t141.w AND t147.a0 = t141.a0 AND (t147.a1 <> t143.a1) AND (t147.a1 <> t145.a1) AND t148.w = t141.w AND t148.a0 = t147.a1 AND t148.a1 = t142.a1 AND t149.w = t141.w AND t149.a0 = t141.a0 AND (t149.a1 <> t143.a1) AND (t149.a1 <> t145.a1) AND (t149.a1 <> t147.a1) AND t150.a0 = t149.a1 AND t150.a1 = t142.a1 UNION SELECT t151.w, t151.a0 FROM "p_is^set^card" t151, "p_three^of" t152, "p_member" t153, "p_get^value$world" t154, "p_member" t155, "p_get^value$world" t156, "p_member" t157, "p_get^value$world" t158, "p_member" t159, "p_get^value$world" t160 WHERE t152.w = t151.w AND t152.a0 = t151.a0 AND t153.w = t151.w AND t153.a0 = t151.a0 AND t154.w = t151.w AND t154.a0 = t153.a1 AND t154.a1 = t152.a1 AND t155.w = t151.w AND t155.a0 = t151.a0 AND (t155.a1 <> t153.a1) AND t156.w = t151.w AND t156.a0 = t155.a1 AND t156.a1 = t152.a1 AND t157.w = t151.w AND t157.a0 = t151.a0 AND (t157.a1 <> t153.a1) AND (t157.a1 <> t155.a1) AND t158.w = t151.w AND t158.a0 = t157.a1 AND t158.a1 = t152.a1 AND t159.w = t151.w AND t159.a0 = t151.a0 AND (t159.a1 <> t153.a1) AND (t159.a1 <> t155.a1) AND (t159.a1 <> t157.a1) AND t160.w = t151.w AND t160.a0 = t159.a1 AND t160.a1 = t152.a1) u(w, a0);
-- demand$getValue$static <- isFour#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#0.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#0.2
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#0.3
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#1.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#1.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#1.2
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#2.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#2.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#2.2
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#3.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#3.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#4.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#4.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#4.2
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#5.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#5.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#6.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#6.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#7.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#8.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#8.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#8.2
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#9.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#9.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#10.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#10.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#11.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#12.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#12.1
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#13.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- isFour#14.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- isPair
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_is^set^card" t1, "p_pair^of" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) u(w, a0);
-- isStraight
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_is^hand" t1, "p_has^value" t2, "p_has^value" t3, "p_has^value" t4, "p_has^value" t5, "p_has^value" t6 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = (t2.a1 + CAST(1 AS BIGINT)) AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = (t2.a1 + CAST(2 AS BIGINT)) AND t5.w = t1.w AND t5.a0 = t1.a0 AND t5.a1 = (t2.a1 + CAST(3 AS BIGINT)) AND t6.w = t1.w AND t6.a0 = t1.a0 AND t6.a1 = (t2.a1 + CAST(4 AS BIGINT)) UNION SELECT t7.w, t7.a0 FROM "p_is^hand" t7, "p_has^value" t8, "p_has^value" t9, "p_has^value" t10, "p_has^value" t11, "p_has^value" t12 WHERE t8.w = t7.w AND t8.a0 = t7.a0 AND t8.a1 = CAST(10 AS BIGINT) AND t9.w = t7.w AND t9.a0 = t7.a0 AND t9.a1 = CAST(11 AS BIGINT) AND t10.w = t7.w AND t10.a0 = t7.a0 AND t10.a1 = CAST(12 AS BIGINT) AND t11.w = t7.w AND t11.a0 = t7.a0 AND t11.a1 = CAST(13 AS BIGINT) AND t12.w = t7.w AND t12.a0 = t7.a0 AND t12.a1 = CAST(1 AS BIGINT)) u(w, a0);
-- isThree
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_is^set^card" t1, "p_three^of" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) u(w, a0);
-- pairBesideThree
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_three^of" t1, "p_pair^of" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND (t2.a1 <> t1.a1)) u(w, a0);
-- secondPair
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_pair^of" t1, "p_pair^of" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND (t2.a1 <> t1.a1)) u(w, a0);
-- getRank
SELECT * FROM (SELECT t1.w, t1.a0, CAST(-1 AS BIGINT) FROM "p_declared" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_is^hand" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) UNION ALL SELECT t3.w, t3.a0, CAST(10 AS BIGINT) FROM "p_is^hand" t3, "p_is^straight" t4, "p_is^flush" t5, "p_is^a" t6, "p_is^k" t7 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t5.w = t3.w AND t5.a0 = t3.a0 AND t6.w = t3.w AND t6.a0 = t3.a0 AND t7.w = t3.w AND t7.a0 = t3.a0 UNION ALL SELECT t8.w, t8.a0, CAST(9 AS BIGINT) FROM "p_is^hand" t8, "p_is^straight" t9, "p_is^flush" t10 WHERE t9.w = t8.w AND t9.a0 = t8.a0 AND t10.w = t8.w AND t10.a0 = t8.a0 AND NOT EXISTS (SELECT 1 FROM "p_ace^and^king" t11 WHERE t11.w = t8.w AND t11.a0 = t8.a0) UNION ALL SELECT t12.w, t12.a0, CAST(8 AS BIGINT) FROM "p_is^hand" t12, "p_is^four" t13 WHERE t13.w = t12.w AND t13.a0 = t12.a0 UNION ALL SELECT t14.w, t14.a0, CAST(7 AS BIGINT) FROM "p_is^hand" t14, "p_is^three" t15, "p_pair^beside^three" t16 WHERE t15.w = t14.w AND t15.a0 = t14.a0 AND t16.w = t14.w AND t16.a0 = t14.a0 UNION ALL SELECT t17.w, t17.a0, CAST(6 AS BIGINT) FROM "p_is^hand" t17, "p_is^flush" t19 WHERE NOT EXISTS (SELECT 1 FROM "p_is^straight" t18 WHERE t18.w = t17.w AND t18.a0 = t17.a0) AND t19.w = t17.w AND t19.a0 = t17.a0 UNION ALL SELECT t20.w, t20.a0, CAST(5 AS BIGINT) FROM "p_is^hand" t20, "p_is^straight" t21 WHERE t21.w = t20.w AND t21.a0 = t20.a0 AND NOT EXISTS (SELECT 1 FROM "p_is^flush" t22 WHERE t22.w = t20.w AND t22.a0 = t20.a0) UNION ALL SELECT t23.w, t23.a0, CAST(4 AS BIGINT) FROM "p_is^hand" t23, "p_is^three" t25 WHERE NOT EXISTS (SELECT 1 FROM "p_is^four" t24 WHERE t24.w = t23.w AND t24.a0 = t23.a0) AND t25.w = t23.w AND t25.a0 = t23.a0 AND NOT EXISTS (SELECT 1 FROM "p_pair^beside^three" t26 WHERE t26.w = t23.w AND t26.a0 = t23.a0) UNION ALL SELECT t27.w, t27.a0, CAST(3 AS BIGINT) FROM "p_is^hand" t27, "p_is^pair" t29, "p_second^pair" t30 WHERE NOT EXISTS (SELECT 1 FROM "p_is^three" t28 WHERE t28.w = t27.w AND t28.a0 = t27.a0) AND t29.w = t27.w AND t29.a0 = t27.a0 AND t30.w = t27.w AND t30.a0 = t27.a0 UNION ALL SELECT t31.w, t31.a0, CAST(2 AS BIGINT) FROM "p_is^hand" t31, "p_is^pair" t33 WHERE NOT EXISTS (SELECT 1 FROM "p_is^three" t32 WHERE t32.w = t31.w AND t32.a0 = t31.a0) AND t33.w = t31.w AND t33.a0 = t31.a0 AND NOT EXISTS (SELECT 1 FROM "p_second^pair" t34 WHERE t34.w = t31.w AND t34.a0 = t31.a0) UNION ALL SELECT t35.w, t35.a0, CAST(1 AS BIGINT) FROM "p_is^hand" t35 WHERE NOT EXISTS (SELECT 1 FROM "p_is^pair" t36 WHERE t36.w = t35.w AND t36.a0 = t35.a0) AND NOT EXISTS (SELECT 1 FROM "p_is^straight" t37 WHERE t37.w = t35.w AND t37.a0 = t35.a0) AND NOT EXISTS (SELECT 1 FROM "p_is^flush" t38 WHERE t38.w = t35.w AND t38.a0 = t35.a0)) u(w, a0, a1);
-- rankOrder
SELECT * FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, CAST(1 AS BIGINT) FROM "p_demand$rank^order" t1, "p_get^rank" t2, "p_get^rank" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1 AND (t2.a1 > t3.a1)) d UNION ALL SELECT DISTINCT * FROM (SELECT t4.w, t4.a0, t4.a1, CAST(2 AS BIGINT) FROM "p_demand$rank^order" t4, "p_get^rank" t5, "p_get^rank" t6 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t6.w = t4.w AND t6.a0 = t4.a1 AND (t5.a1 < t6.a1)) d UNION ALL SELECT DISTINCT * FROM (SELECT t7.w, t7.a0, t7.a1, CAST(0 AS BIGINT) FROM "p_demand$rank^order" t7, "p_get^rank" t8, "p_get^rank" t9 WHERE t8.w = t7.w AND t8.a0 = t7.a0 AND t9.w = t7.w AND t9.a0 = t7.a1 AND t9.a1 = t8.a1) d) u(w, a0, a1, a2);
-- beatRank
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, CAST(-1 AS BIGINT) FROM "p_demand$beat^rank" t1, "p_declared" t2, "p_declared" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1 AND NOT EXISTS (SELECT 1 FROM "p_valid^fighting" t4 WHERE t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t1.a1) UNION SELECT t5.w, t5.a0, t5.a1, t7.a2 FROM "p_demand$beat^rank" t5, "p_valid^fighting" t6, "p_rank^order" t7 WHERE t6.w = t5.w AND t6.a0 = t5.a0 AND t6.a1 = t5.a1 AND t7.w = t5.w AND t7.a0 = t5.a0 AND t7.a1 = t5.a1) u(w, a0, a1, a2);
-- demand$validFighting <- beatRank#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$beat^rank" t1, "p_declared" t2, "p_declared" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1;
-- demand$validFighting <- beatRank#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$beat^rank" t1;
-- demand$rankOrder <- beatRank#1.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$beat^rank" t1, "p_valid^fighting" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- keyPart
SELECT * FROM (SELECT CAST(10 AS BIGINT), CAST(1 AS BIGINT), CAST(42 AS BIGINT) UNION ALL SELECT CAST(9 AS BIGINT), CAST(1 AS BIGINT), CAST(101 AS BIGINT) UNION ALL SELECT CAST(8 AS BIGINT), CAST(1 AS BIGINT), CAST(98 AS BIGINT) UNION ALL SELECT CAST(7 AS BIGINT), CAST(1 AS BIGINT), CAST(98 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(1 AS BIGINT), CAST(42 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT), CAST(1 AS BIGINT), CAST(101 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(1 AS BIGINT), CAST(98 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(1 AS BIGINT), CAST(78 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(2 AS BIGINT), CAST(81 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(1 AS BIGINT), CAST(78 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(2 AS BIGINT), CAST(81 AS BIGINT) UNION ALL SELECT CAST(1 AS BIGINT), CAST(1 AS BIGINT), CAST(42 AS BIGINT) UNION ALL SELECT CAST(8 AS BIGINT), CAST(2 AS BIGINT), CAST(81 AS BIGINT) UNION ALL SELECT CAST(7 AS BIGINT), CAST(2 AS BIGINT), CAST(78 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(2 AS BIGINT), CAST(81 AS BIGINT)) u(a0, a1, a2);
-- maxValue
SELECT w, a0, max(v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_is^set^card" t1, "p_has^value" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) s(w, a0, v)) g GROUP BY w, a0;
-- getMax
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_max^value" t1 UNION SELECT t2.w, t2.a0, CAST(0 AS BIGINT) FROM "p_is^empty" t2 UNION SELECT t3.w, t3.a0, CAST(0 AS BIGINT) FROM "p_declared" t3 WHERE NOT EXISTS (SELECT 1 FROM "p_is^set^card" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0)) u(w, a0, a1);
-- getMaxCard
SELECT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_get^max" t1, "p_member" t2, "p_get^value$static" t3 WHERE (t1.a1 > CAST(0 AS BIGINT)) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1 AND t3.a1 = t1.a1 UNION SELECT t4.w, t4.a0, t5.a1 FROM "p_get^max" t4, "p_member" t5, "p_get^value$world" t6 WHERE (t4.a1 > CAST(0 AS BIGINT)) AND t5.w = t4.w AND t5.a0 = t4.a0 AND t6.w = t4.w AND t6.a0 = t5.a1 AND t6.a1 = t4.a1) u(w, a0, a1);
-- demand$getValue$static <- getMaxCard#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- straightTop
SELECT * FROM (SELECT t1.w, t1.a0, t4.a1 FROM "p_is^straight" t1, "p_has^value" t2, "p_has^value" t3, "p_member" t4, "p_get^value$static" t5 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND ((t2.a1 - CAST(4 AS BIGINT)) >= CAST(1 AS BIGINT)) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = (t2.a1 - CAST(4 AS BIGINT)) AND t4.w = t1.w AND t4.a0 = t1.a0 AND t5.a0 = t4.a1 AND t5.a1 = t2.a1 UNION SELECT t6.w, t6.a0, t9.a1 FROM "p_is^straight" t6, "p_has^value" t7, "p_has^value" t8, "p_member" t9, "p_get^value$world" t10 WHERE t7.w = t6.w AND t7.a0 = t6.a0 AND ((t7.a1 - CAST(4 AS BIGINT)) >= CAST(1 AS BIGINT)) AND t8.w = t6.w AND t8.a0 = t6.a0 AND t8.a1 = (t7.a1 - CAST(4 AS BIGINT)) AND t9.w = t6.w AND t9.a0 = t6.a0 AND t10.w = t6.w AND t10.a0 = t9.a1 AND t10.a1 = t7.a1 UNION SELECT t11.w, t11.a0, t13.a1 FROM "p_is^straight" t11, "p_has^value" t12, "p_member" t13, "p_get^value$static" t14 WHERE t12.w = t11.w AND t12.a0 = t11.a0 AND t12.a1 = CAST(10 AS BIGINT) AND t13.w = t11.w AND t13.a0 = t11.a0 AND t14.a0 = t13.a1 AND t14.a1 = CAST(1 AS BIGINT) UNION SELECT t15.w, t15.a0, t17.a1 FROM "p_is^straight" t15, "p_has^value" t16, "p_member" t17, "p_get^value$world" t18 WHERE t16.w = t15.w AND t16.a0 = t15.a0 AND t16.a1 = CAST(10 AS BIGINT) AND t17.w = t15.w AND t17.a0 = t15.a0 AND t18.w = t15.w AND t18.a0 = t17.a1 AND t18.a1 = CAST(1 AS BIGINT)) u(w, a0, a1);
-- demand$getValue$static <- straightTop#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$getValue$static <- straightTop#2.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- valueCount
SELECT w, a0, a1, count(DISTINCT v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t3.a1 FROM "p_demand$value^count" t1, "p_is^set^card" t2, "p_member" t3, "p_get^value$static" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.a0 = t3.a1 AND t4.a1 = t1.a1 UNION ALL SELECT t5.w, t5.a0, t5.a1, t7.a1 FROM "p_demand$value^count" t5, "p_is^set^card" t6, "p_member" t7, "p_get^value$world" t8 WHERE t6.w = t5.w AND t6.a0 = t5.a0 AND t7.w = t5.w AND t7.a0 = t5.a0 AND t8.w = t5.w AND t8.a0 = t7.a1 AND t8.a1 = t5.a1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- demand$getValue$static <- valueCount#0.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- part
SELECT * FROM (SELECT t1.w, t1.a0, CAST(42 AS BIGINT), t3.a1 FROM "p_demand$part" t1, "p_is^set^card" t2, "p_member" t3 WHERE t1.a1 = CAST(42 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a0 UNION SELECT t4.w, t4.a0, CAST(101 AS BIGINT), t5.a1 FROM "p_demand$part" t4, "p_straight^top" t5 WHERE t4.a1 = CAST(101 AS BIGINT) AND t5.w = t4.w AND t5.a0 = t4.a0 UNION SELECT t6.w, t6.a0, CAST(98 AS BIGINT), t7.a1 FROM "p_demand$part" t6, "p_member" t7, "p_get^value$static" t8, "p_value^count" t9 WHERE t6.a1 = CAST(98 AS BIGINT) AND t7.w = t6.w AND t7.a0 = t6.a0 AND t8.a0 = t7.a1 AND t9.w = t6.w AND t9.a0 = t6.a0 AND t9.a1 = t8.a1 AND (t9.a2 >= CAST(3 AS BIGINT)) UNION SELECT t10.w, t10.a0, CAST(98 AS BIGINT), t11.a1 FROM "p_demand$part" t10, "p_member" t11, "p_get^value$world" t12, "p_value^count" t13 WHERE t10.a1 = CAST(98 AS BIGINT) AND t11.w = t10.w AND t11.a0 = t10.a0 AND t12.w = t10.w AND t12.a0 = t11.a1 AND t13.w = t10.w AND t13.a0 = t10.a0 AND t13.a1 = t12.a1 AND (t13.a2 >= CAST(3 AS BIGINT)) UNION SELECT t14.w, t14.a0, CAST(78 AS BIGINT), t15.a1 FROM "p_demand$part" t14, "p_member" t15, "p_get^value$static" t16, "p_value^count" t17 WHERE t14.a1 = CAST(78 AS BIGINT) AND t15.w = t14.w AND t15.a0 = t14.a0 AND t16.a0 = t15.a1 AND t17.w = t14.w AND t17.a0 = t14.a0 AND t17.a1 = t16.a1 AND t17.a2 = CAST(2 AS BIGINT) UNION SELECT t18.w, t18.a0, CAST(78 AS BIGINT), t19.a1 FROM "p_demand$part" t18, "p_member" t19, "p_get^value$world" t20, "p_value^count" t21 WHERE t18.a1 = CAST(78 AS BIGINT) AND t19.w = t18.w AND t19.a0 = t18.a0 AND t20.w = t18.w AND t20.a0 = t19.a1 AND t21.w = t18.w AND t21.a0 = t18.a0 AND t21.a1 = t20.a1 AND t21.a2 = CAST(2 AS BIGINT) UNION SELECT t22.w, t22.a0, CAST(81 AS BIGINT), t23.a1 FROM "p_demand$part" t22, "p_member" t23, "p_get^value$static" t24, "p_value^count" t25 WHERE t22.a1 = CAST(81 AS BIGINT) AND t23.w = t22.w AND t23.a0 = t22.a0 AND t24.a0 = t23.a1 AND t25.w = t22.w AND t25.a0 = t22.a0 AND t25.a1 = t24.a1 AND t25.a2 = CAST(1 AS BIGINT) UNION SELECT t26.w, t26.a0, CAST(81 AS BIGINT), t27.a1 FROM "p_demand$part" t26, "p_member" t27, "p_get^value$world" t28, "p_value^count" t29 WHERE t26.a1 = CAST(81 AS BIGINT) AND t27.w = t26.w AND t27.a0 = t26.a0 AND t28.w = t26.w AND t28.a0 = t27.a1 AND t29.w = t26.w AND t29.a0 = t26.a0 AND t29.a1 = t28.a1 AND t29.a2 = CAST(1 AS BIGINT) UNION SELECT t30.w, t30.a0, CAST(72 AS BIGINT), t31.a1 FROM "p_demand$part" t30, "p_get^max^card" t31 WHERE t30.a1 = CAST(72 AS BIGINT) AND t31.w = t30.w AND t31.a0 = t30.a0) u(w, a0, a1, a2);
-- demand$getValue$static <- part#2.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$valueCount <- part#2.1
SELECT DISTINCT t1.w, t1.a0, t3.a1 FROM "p_demand$part" t1, "p_member" t2, "p_get^value$static" t3 WHERE t1.a1 = CAST(98 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1;
-- demand$valueCount <- part#3.0
SELECT DISTINCT t1.w, t1.a0, t3.a1 FROM "p_demand$part" t1, "p_member" t2, "p_get^value$world" t3 WHERE t1.a1 = CAST(98 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t2.a1;
-- demand$getValue$static <- part#4.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$valueCount <- part#4.1
SELECT DISTINCT t1.w, t1.a0, t3.a1 FROM "p_demand$part" t1, "p_member" t2, "p_get^value$static" t3 WHERE t1.a1 = CAST(78 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1;
-- demand$valueCount <- part#5.0
SELECT DISTINCT t1.w, t1.a0, t3.a1 FROM "p_demand$part" t1, "p_member" t2, "p_get^value$world" t3 WHERE t1.a1 = CAST(78 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t2.a1;
-- demand$getValue$static <- part#6.0
SELECT DISTINCT t1.a1 FROM "p_member" t1;
-- demand$valueCount <- part#6.1
SELECT DISTINCT t1.w, t1.a0, t3.a1 FROM "p_demand$part" t1, "p_member" t2, "p_get^value$static" t3 WHERE t1.a1 = CAST(81 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1;
-- demand$valueCount <- part#7.0
SELECT DISTINCT t1.w, t1.a0, t3.a1 FROM "p_demand$part" t1, "p_member" t2, "p_get^value$world" t3 WHERE t1.a1 = CAST(81 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t2.a1;
-- partAce
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$part^ace" t1, "p_part" t2, "p_get^value$static" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.a0 = t2.a2 AND t3.a1 = CAST(1 AS BIGINT) UNION SELECT t4.w, t4.a0, t4.a1 FROM "p_demand$part^ace" t4, "p_part" t5, "p_get^value$world" t6 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a1 AND t6.w = t4.w AND t6.a0 = t5.a2 AND t6.a1 = CAST(1 AS BIGINT)) u(w, a0, a1);
-- demand$part <- partAce#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^ace" t1;
-- demand$getValue$static <- partAce#0.1
SELECT DISTINCT t1.a2 FROM "p_part" t1;
-- demand$part <- partAce#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^ace" t1;
-- partAtLeast
SELECT w, a0, a1, a2, count(DISTINCT v) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t4.a2 FROM "p_demand$part^at^least" t1, "p_part" t2, "p_get^value$static" t3, "p_part" t4, "p_get^value$static" t5 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.a0 = t2.a2 AND t3.a1 = t1.a2 AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t1.a1 AND t5.a0 = t4.a2 AND (t5.a1 >= t1.a2) UNION ALL SELECT t6.w, t6.a0, t6.a1, t6.a2, t9.a2 FROM "p_demand$part^at^least" t6, "p_part" t7, "p_get^value$static" t8, "p_part" t9, "p_get^value$world" t10 WHERE t7.w = t6.w AND t7.a0 = t6.a0 AND t7.a1 = t6.a1 AND t8.a0 = t7.a2 AND t8.a1 = t6.a2 AND t9.w = t6.w AND t9.a0 = t6.a0 AND t9.a1 = t6.a1 AND t10.w = t6.w AND t10.a0 = t9.a2 AND (t10.a1 >= t6.a2) UNION ALL SELECT t11.w, t11.a0, t11.a1, t11.a2, t14.a2 FROM "p_demand$part^at^least" t11, "p_part" t12, "p_get^value$world" t13, "p_part" t14, "p_get^value$static" t15 WHERE t12.w = t11.w AND t12.a0 = t11.a0 AND t12.a1 = t11.a1 AND t13.w = t11.w AND t13.a0 = t12.a2 AND t13.a1 = t11.a2 AND t14.w = t11.w AND t14.a0 = t11.a0 AND t14.a1 = t11.a1 AND t15.a0 = t14.a2 AND (t15.a1 >= t11.a2) UNION ALL SELECT t16.w, t16.a0, t16.a1, t16.a2, t19.a2 FROM "p_demand$part^at^least" t16, "p_part" t17, "p_get^value$world" t18, "p_part" t19, "p_get^value$world" t20 WHERE t17.w = t16.w AND t17.a0 = t16.a0 AND t17.a1 = t16.a1 AND t18.w = t16.w AND t18.a0 = t17.a2 AND t18.a1 = t16.a2 AND t19.w = t16.w AND t19.a0 = t16.a0 AND t19.a1 = t16.a1 AND t20.w = t16.w AND t20.a0 = t19.a2 AND (t20.a1 >= t16.a2)) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- demand$part <- partAtLeast#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$getValue$static <- partAtLeast#0.1
SELECT DISTINCT t1.a2 FROM "p_part" t1;
-- demand$part <- partAtLeast#0.2
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$getValue$static <- partAtLeast#0.3
SELECT DISTINCT t1.a2 FROM "p_part" t1;
-- demand$part <- partAtLeast#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$getValue$static <- partAtLeast#1.1
SELECT DISTINCT t1.a2 FROM "p_part" t1;
-- demand$part <- partAtLeast#1.2
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$part <- partAtLeast#2.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$part <- partAtLeast#2.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$getValue$static <- partAtLeast#2.2
SELECT DISTINCT t1.a2 FROM "p_part" t1;
-- demand$part <- partAtLeast#3.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- demand$part <- partAtLeast#3.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^at^least" t1;
-- partCount
SELECT w, a0, a1, a2, count(DISTINCT v) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t3.a1, t2.a2 FROM "p_demand$part^count" t1, "p_part" t2, "p_get^value$static" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.a0 = t2.a2 UNION ALL SELECT t4.w, t4.a0, t4.a1, t6.a1, t5.a2 FROM "p_demand$part^count" t4, "p_part" t5, "p_get^value$world" t6 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a1 AND t6.w = t4.w AND t6.a0 = t5.a2) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- demand$part <- partCount#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^count" t1;
-- demand$getValue$static <- partCount#0.1
SELECT DISTINCT t1.a2 FROM "p_part" t1;
-- demand$part <- partCount#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^count" t1;
-- partHas
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$part^has" t1, "p_part" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) u(w, a0, a1);
-- demand$part <- partHas#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^has" t1;
-- upTo
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(3 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(3 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(4 AS BIGINT)) u(a0, a1);
-- partKey
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, CAST(0 AS BIGINT), CAST(1 AS BIGINT) FROM "p_demand$part^key" t1, "p_part^ace" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 UNION SELECT t3.w, t3.a0, t3.a1, CAST(0 AS BIGINT), CAST(0 AS BIGINT) FROM "p_demand$part^key" t3, "p_part^has" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND NOT EXISTS (SELECT 1 FROM "p_part^ace" t5 WHERE t5.w = t3.w AND t5.a0 = t3.a0 AND t5.a1 = t3.a1) UNION SELECT t6.w, t6.a0, t6.a1, ((t8.a3 - t7.a3) + t9.a1), t7.a2 FROM "p_demand$part^key" t6, "p_part^count" t7, "p_part^at^least" t8, "p_up^to" t9 WHERE t7.w = t6.w AND t7.a0 = t6.a0 AND t7.a1 = t6.a1 AND t8.w = t6.w AND t8.a0 = t6.a0 AND t8.a1 = t6.a1 AND t8.a2 = t7.a2 AND t9.a0 = t7.a3) u(w, a0, a1, a2, a3);
-- demand$partAce <- partKey#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^key" t1;
-- demand$partHas <- partKey#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^key" t1;
-- demand$partAce <- partKey#1.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^key" t1, "p_part^has" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- demand$partCount <- partKey#2.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^key" t1;
-- demand$partAtLeast <- partKey#2.1
SELECT DISTINCT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$part^key" t1, "p_part^count" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- handKey
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t2.a1, t3.a2, t3.a3 FROM "p_get^rank" t1, "p_key^part" t2, "p_part^key" t3 WHERE t2.a0 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t2.a2) u(w, a0, a1, a2, a3);
-- demand$partKey <- handKey#0.0
SELECT DISTINCT t1.w, t1.a0, t2.a2 FROM "p_get^rank" t1, "p_key^part" t2 WHERE t2.a0 = t1.a1;
-- handKeyDiff
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t2.a2 FROM "p_demand$hand^key^diff" t1, "p_hand^key" t2, "p_hand^key" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a2 AND t3.w = t1.w AND t3.a0 = t1.a1 AND t3.a1 = t1.a2 AND t3.a2 = t2.a2 AND (t2.a3 <> t3.a3)) u(w, a0, a1, a2, a3);
-- firstHandKeyDiff
SELECT w, a0, a1, a2, min(v) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t2.a3 FROM "p_demand$first^hand^key^diff" t1, "p_hand^key^diff" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- demand$handKeyDiff <- firstHandKeyDiff#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_demand$first^hand^key^diff" t1;
-- handKeyDiffers
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_demand$hand^key^differs" t1, "p_hand^key^diff" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2) u(w, a0, a1, a2);
-- demand$handKeyDiff <- handKeyDiffers#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_demand$hand^key^differs" t1;
-- keyLength
SELECT w, a0, a1, count(DISTINCT v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_hand^key" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- sameKeyLength
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a1 FROM "p_demand$same^key^length" t1, "p_key^length" t2, "p_key^length" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1 AND t3.a1 = t2.a1 AND t3.a2 = t2.a2) u(w, a0, a1, a2);
-- compareKeys
SELECT * FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a1, CAST(-1 AS BIGINT) FROM "p_demand$compare^keys" t1, "p_key^length" t2, "p_key^length" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a1 AND t3.a1 = t2.a1 AND (t2.a2 <> t3.a2)) d UNION ALL SELECT DISTINCT * FROM (SELECT t4.w, t4.a0, t4.a1, t5.a2, CAST(1 AS BIGINT) FROM "p_demand$compare^keys" t4, "p_same^key^length" t5, "p_first^hand^key^diff" t6, "p_hand^key" t7, "p_hand^key" t8 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a1 AND t6.w = t4.w AND t6.a0 = t4.a0 AND t6.a1 = t4.a1 AND t6.a2 = t5.a2 AND t7.w = t4.w AND t7.a0 = t4.a0 AND t7.a1 = t5.a2 AND t7.a2 = t6.a3 AND t8.w = t4.w AND t8.a0 = t4.a1 AND t8.a1 = t5.a2 AND t8.a2 = t6.a3 AND (t7.a3 > t8.a3)) d UNION ALL SELECT DISTINCT * FROM (SELECT t9.w, t9.a0, t9.a1, t10.a2, CAST(2 AS BIGINT) FROM "p_demand$compare^keys" t9, "p_same^key^length" t10, "p_first^hand^key^diff" t11, "p_hand^key" t12, "p_hand^key" t13 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t10.a1 = t9.a1 AND t11.w = t9.w AND t11.a0 = t9.a0 AND t11.a1 = t9.a1 AND t11.a2 = t10.a2 AND t12.w = t9.w AND t12.a0 = t9.a0 AND t12.a1 = t10.a2 AND t12.a2 = t11.a3 AND t13.w = t9.w AND t13.a0 = t9.a1 AND t13.a1 = t10.a2 AND t13.a2 = t11.a3 AND (t12.a3 < t13.a3)) d UNION ALL SELECT t14.w, t14.a0, t14.a1, t15.a2, CAST(0 AS BIGINT) FROM "p_demand$compare^keys" t14, "p_same^key^length" t15 WHERE t15.w = t14.w AND t15.a0 = t14.a0 AND t15.a1 = t14.a1 AND NOT EXISTS (SELECT 1 FROM "p_hand^key^differs" t16 WHERE t16.w = t14.w AND t16.a0 = t14.a0 AND t16.a1 = t14.a1 AND t16.a2 = t15.a2)) u(w, a0, a1, a2, a3);
-- demand$sameKeyLength <- compareKeys#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$compare^keys" t1;
-- demand$firstHandKeyDiff <- compareKeys#1.1
SELECT DISTINCT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$compare^keys" t1, "p_same^key^length" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- demand$sameKeyLength <- compareKeys#2.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$compare^keys" t1;
-- demand$firstHandKeyDiff <- compareKeys#2.1
SELECT DISTINCT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$compare^keys" t1, "p_same^key^length" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- demand$sameKeyLength <- compareKeys#3.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$compare^keys" t1;
-- demand$handKeyDiffers <- compareKeys#3.1
SELECT DISTINCT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$compare^keys" t1, "p_same^key^length" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- partDecides
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t3.a2 FROM "p_demand$part^decides" t1, "p_rank^order" t2, "p_compare^keys" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = CAST(0 AS BIGINT) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t1.a1 AND (t3.a3 <> CAST(0 AS BIGINT))) u(w, a0, a1, a2);
-- demand$rankOrder <- partDecides#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^decides" t1;
-- demand$compareKeys <- partDecides#0.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^decides" t1, "p_rank^order" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = CAST(0 AS BIGINT);
-- decidingPart
SELECT w, a0, a1, min(v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$deciding^part" t1, "p_part^decides" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- demand$partDecides <- decidingPart#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$deciding^part" t1;
-- partDecidesAny
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$part^decides^any" t1, "p_part^decides" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) u(w, a0, a1);
-- demand$partDecides <- partDecidesAny#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$part^decides^any" t1;
-- tieBreak
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t3.a3 FROM "p_demand$tie^break" t1, "p_deciding^part" t2, "p_compare^keys" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t1.a1 AND t3.a2 = t2.a2 UNION SELECT t4.w, t4.a0, t4.a1, CAST(0 AS BIGINT) FROM "p_demand$tie^break" t4, "p_rank^order" t5 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a1 AND t5.a2 = CAST(0 AS BIGINT) AND NOT EXISTS (SELECT 1 FROM "p_part^decides^any" t6 WHERE t6.w = t4.w AND t6.a0 = t4.a0 AND t6.a1 = t4.a1)) u(w, a0, a1, a2);
-- demand$decidingPart <- tieBreak#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$tie^break" t1;
-- demand$compareKeys <- tieBreak#0.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$tie^break" t1;
-- demand$rankOrder <- tieBreak#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$tie^break" t1;
-- demand$partDecidesAny <- tieBreak#1.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$tie^break" t1, "p_rank^order" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = CAST(0 AS BIGINT);
-- beat
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$beat" t1, "p_beat^rank" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND (t2.a2 <> CAST(0 AS BIGINT)) UNION SELECT t3.w, t3.a0, t3.a1, t5.a2 FROM "p_demand$beat" t3, "p_beat^rank" t4, "p_tie^break" t5 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND t4.a2 = CAST(0 AS BIGINT) AND t5.w = t3.w AND t5.a0 = t3.a0 AND t5.a1 = t3.a1) u(w, a0, a1, a2);
-- demand$beatRank <- beat#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$beat" t1;
-- demand$beatRank <- beat#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$beat" t1;
-- demand$tieBreak <- beat#1.1
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$beat" t1, "p_beat^rank" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = CAST(0 AS BIGINT);
-- oneValue
SELECT * FROM (SELECT CAST(60 AS BIGINT) UNION ALL SELECT CAST(59 AS BIGINT) UNION ALL SELECT CAST(91 AS BIGINT)) u(a0);
-- compareHands
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$compare^hands" t1, "p_rank^order" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND (t2.a2 <> CAST(0 AS BIGINT)) UNION SELECT t3.w, t3.a0, t3.a1, t4.a2 FROM "p_demand$compare^hands" t3, "p_tie^break" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1) u(w, a0, a1, a2);
-- demand$rankOrder <- compareHands#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$compare^hands" t1;
-- demand$tieBreak <- compareHands#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$compare^hands" t1;
-- beaten
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$beaten" t1, "p_seat" t2, "p_seat" t3, "p_beat" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND (t3.a1 <> t1.a1) AND t4.w = t1.w AND t4.a0 = t3.a1 AND t4.a1 = t1.a1 AND t4.a2 = CAST(1 AS BIGINT)) u(w, a0, a1);
-- demand$beat <- beaten#0.0
SELECT DISTINCT t1.w, t3.a1, t1.a1 FROM "p_demand$beaten" t1, "p_seat" t2, "p_seat" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0;
-- invalidTable
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_seat" t1, "p_seat" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND (t1.a1 <> t2.a1) AND NOT EXISTS (SELECT 1 FROM "p_valid^fighting" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a1 AND t3.a1 = t2.a1)) u(w, a0);
-- demand$validFighting <- invalidTable#0.0
SELECT DISTINCT t1.w, t1.a1, t2.a1 FROM "p_seat" t1, "p_seat" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0;
-- winner
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_seat" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_invalid^table" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) AND NOT EXISTS (SELECT 1 FROM "p_beaten" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t1.a1)) u(w, a0, a1);
-- demand$beaten <- winner#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_seat" t1;
-- whyNotFight
SELECT * FROM (SELECT t1.w, t1.a0, t2.a0, CAST(97 AS BIGINT) FROM "p_is^hand" t1, "p_is^hand" t2, "p_share^card" t3 WHERE t2.w = t1.w AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t2.a0) u(w, a0, a1, a2);
-- demand$shareCard <- whyNotFight#0.0
SELECT DISTINCT t1.w, t1.a0, t2.a0 FROM "p_is^hand" t1, "p_is^hand" t2 WHERE t2.w = t1.w;
-- decidedAt
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_deciding^part" t1) u(w, a0, a1, a2);
-- keyDiff
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a0, t2.a1, t1.a2 FROM "p_part^key" t1, "p_part^key" t2 WHERE t2.w = t1.w AND t2.a2 = t1.a2 AND (t1.a3 <> t2.a3)) u(w, a0, a1, a2, a3, a4);
-- firstKeyDiff
SELECT w, a0, a1, a2, a3, min(v) AS a4 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3, t1.a4 FROM "p_key^diff" t1) s(w, a0, a1, a2, a3, v)) g GROUP BY w, a0, a1, a2, a3;
-- keyDiffAt
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3, t1.a4 FROM "p_first^key^diff" t1) u(w, a0, a1, a2, a3, a4);
-- partSize
SELECT w, a0, a1, count(*) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_part" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- keyDiffers
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3 FROM "p_key^diff" t1) u(w, a0, a1, a2, a3);
-- samePartSize
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a0, t2.a1 FROM "p_part^size" t1, "p_part^size" t2 WHERE t2.w = t1.w AND t2.a2 = t1.a2) u(w, a0, a1, a2, a3);
-- comparePart
SELECT * FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a0, t2.a1, CAST(-1 AS BIGINT) FROM "p_part^size" t1, "p_part^size" t2 WHERE t2.w = t1.w AND (t1.a2 <> t2.a2)) d UNION ALL SELECT DISTINCT * FROM (SELECT t3.w, t3.a0, t3.a1, t3.a2, t3.a3, CAST(1 AS BIGINT) FROM "p_same^part^size" t3, "p_first^key^diff" t4, "p_part^key" t5, "p_part^key" t6 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND t4.a2 = t3.a2 AND t4.a3 = t3.a3 AND t5.w = t3.w AND t5.a0 = t3.a0 AND t5.a1 = t3.a1 AND t5.a2 = t4.a4 AND t6.w = t3.w AND t6.a0 = t3.a2 AND t6.a1 = t3.a3 AND t6.a2 = t4.a4 AND (t5.a3 > t6.a3)) d UNION ALL SELECT DISTINCT * FROM (SELECT t7.w, t7.a0, t7.a1, t7.a2, t7.a3, CAST(2 AS BIGINT) FROM "p_same^part^size" t7, "p_first^key^diff" t8, "p_part^key" t9, "p_part^key" t10 WHERE t8.w = t7.w AND t8.a0 = t7.a0 AND t8.a1 = t7.a1 AND t8.a2 = t7.a2 AND t8.a3 = t7.a3 AND t9.w = t7.w AND t9.a0 = t7.a0 AND t9.a1 = t7.a1 AND t9.a2 = t8.a4 AND t10.w = t7.w AND t10.a0 = t7.a2 AND t10.a1 = t7.a3 AND t10.a2 = t8.a4 AND (t9.a3 < t10.a3)) d UNION ALL SELECT t11.w, t11.a0, t11.a1, t11.a2, t11.a3, CAST(0 AS BIGINT) FROM "p_same^part^size" t11 WHERE NOT EXISTS (SELECT 1 FROM "p_key^differs" t12 WHERE t12.w = t11.w AND t12.a0 = t11.a0 AND t12.a1 = t11.a1 AND t12.a2 = t11.a2 AND t12.a3 = t11.a3)) u(w, a0, a1, a2, a3, a4);
-- demand$partKey <- comparePart#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_same^part^size" t1;
-- demand$partKey <- comparePart#1.1
SELECT DISTINCT t1.w, t1.a2, t1.a3 FROM "p_same^part^size" t1;
-- demand$partKey <- comparePart#2.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_same^part^size" t1;
-- demand$partKey <- comparePart#2.1
SELECT DISTINCT t1.w, t1.a2, t1.a3 FROM "p_same^part^size" t1;
-- compareSetCard
SELECT * FROM (SELECT t1.w, t1.a0, t2.a0, CAST(-1 AS BIGINT) FROM "p_declared" t1, "p_declared" t2 WHERE t2.w = t1.w AND NOT EXISTS (SELECT 1 FROM "p_is^set^card" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a0) UNION SELECT t4.w, t4.a0, t5.a0, CAST(-1 AS BIGINT) FROM "p_declared" t4, "p_declared" t5 WHERE t5.w = t4.w AND NOT EXISTS (SELECT 1 FROM "p_is^set^card" t6 WHERE t6.w = t4.w AND t6.a0 = t5.a0) UNION SELECT t7.w, t7.a0, t8.a0, CAST(-1 AS BIGINT) FROM "p_size" t7, "p_size" t8 WHERE t8.w = t7.w AND (t7.a1 <> t8.a1) UNION SELECT t9.w, t9.a0, t10.a0, CAST(0 AS BIGINT) FROM "p_is^empty" t9, "p_is^empty" t10 WHERE t10.w = t9.w UNION SELECT t11.w, t11.a0, t12.a0, t13.a4 FROM "p_has^card" t11, "p_has^card" t12, "p_compare^part" t13 WHERE t12.w = t11.w AND t13.w = t11.w AND t13.a0 = t11.a0 AND t13.a1 = CAST(42 AS BIGINT) AND t13.a2 = t12.a0 AND t13.a3 = CAST(42 AS BIGINT)) u(w, a0, a1, a2);
-- matched
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a2, t1.a1 FROM "p_bet" t1, "p_bet" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a2 = t1.a2 AND (t2.a1 <> t1.a1) AND (t2.a3 >= t1.a3)) u(w, a0, a1, a2);
-- otherBet
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a2, t1.a1 FROM "p_bet" t1, "p_bet" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a2 = t1.a2 AND (t2.a1 <> t1.a1)) u(w, a0, a1, a2);
-- otherTop
SELECT w, a0, a1, a2, max(v) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a2, t1.a1, t2.a3 FROM "p_bet" t1, "p_bet" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a2 = t1.a2 AND (t2.a1 <> t1.a1)) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- uncalled
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, (t1.a3 - t3.a3) FROM "p_bet" t1, "p_other^top" t3 WHERE NOT EXISTS (SELECT 1 FROM "p_matched" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a2 AND t2.a2 = t1.a1) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t1.a2 AND t3.a2 = t1.a1 UNION SELECT t4.w, t4.a0, t4.a1, t4.a2, t4.a3 FROM "p_bet" t4 WHERE NOT EXISTS (SELECT 1 FROM "p_other^bet" t5 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a2 AND t5.a2 = t4.a1)) u(w, a0, a1, a2, a3);
-- returnedSum
SELECT w, a0, a1, CAST(sum(v) AS BIGINT) AS a2 FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a3, t1.a2 FROM "p_uncalled" t1) s(w, a0, a1, v, e0)) g GROUP BY w, a0, a1;
-- returned
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_returned^sum" t1) u(w, a0, a1, a2);
-- hasUncalled
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_uncalled" t1) u(w, a0, a1, a2);
-- kept
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3 FROM "p_bet" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_has^uncalled" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2) UNION SELECT t3.w, t3.a0, t3.a1, t3.a2, (t3.a3 - t4.a3) FROM "p_bet" t3, "p_uncalled" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND t4.a2 = t3.a2) u(w, a0, a1, a2, a3);
-- keptSum
SELECT w, a0, a1, CAST(sum(v) AS BIGINT) AS a2 FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a3, t1.a2 FROM "p_kept" t1) s(w, a0, a1, v, e0)) g GROUP BY w, a0, a1;
-- hasBet
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_bet" t1) u(w, a0, a1);
-- betIn
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_kept^sum" t1 UNION SELECT t2.w, t2.a0, t2.a1, CAST(0 AS BIGINT) FROM "p_ante" t2 WHERE NOT EXISTS (SELECT 1 FROM "p_has^bet" t3 WHERE t3.w = t2.w AND t3.a0 = t2.a0 AND t3.a1 = t2.a1)) u(w, a0, a1, a2);
-- live
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_bet^in" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1)) u(w, a0, a1, a2);
-- level
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_live" t1) u(w, a0, a1);
-- below
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a1 FROM "p_level" t1, "p_level" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND (t2.a1 < t1.a1)) u(w, a0, a1, a2);
-- hasBelow
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_below" t1) u(w, a0, a1);
-- levelBelow
SELECT w, a0, a1, max(v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_below" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- floor
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_level" t1, "p_level^below" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 UNION SELECT t3.w, t3.a0, t3.a1, CAST(0 AS BIGINT) FROM "p_level" t3 WHERE NOT EXISTS (SELECT 1 FROM "p_has^below" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1)) u(w, a0, a1, a2);
-- above
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_below" t1) u(w, a0, a1);
-- top
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_level" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_above" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1)) u(w, a0, a1);
-- chipsIn
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a1, CAST(1 AS BIGINT), (t2.a2 - t1.a2) FROM "p_floor" t1, "p_bet^in" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND (t2.a2 > t1.a2) AND (t2.a2 < t1.a1) UNION SELECT t3.w, t3.a0, t3.a1, t4.a1, CAST(1 AS BIGINT), (t3.a1 - t3.a2) FROM "p_floor" t3, "p_bet^in" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND (t4.a2 >= t3.a1) AND (t4.a2 > t3.a2) AND NOT EXISTS (SELECT 1 FROM "p_top" t5 WHERE t5.w = t3.w AND t5.a0 = t3.a0 AND t5.a1 = t3.a1) UNION SELECT t6.w, t6.a0, t6.a1, t7.a1, CAST(1 AS BIGINT), (t7.a2 - t6.a2) FROM "p_floor" t6, "p_bet^in" t7, "p_top" t8 WHERE t7.w = t6.w AND t7.a0 = t6.a0 AND (t7.a2 >= t6.a1) AND (t7.a2 > t6.a2) AND t8.w = t6.w AND t8.a0 = t6.a0 AND t8.a1 = t6.a1 UNION SELECT t9.w, t9.a0, t9.a1, t11.a1, CAST(0 AS BIGINT), t11.a2 FROM "p_level" t9, "p_ante" t11 WHERE NOT EXISTS (SELECT 1 FROM "p_has^below" t10 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t10.a1 = t9.a1) AND t11.w = t9.w AND t11.a0 = t9.a0) u(w, a0, a1, a2, a3, a4);
-- potSum
SELECT w, a0, a1, CAST(sum(v) AS BIGINT) AS a2 FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a4, t1.a2, t1.a3 FROM "p_chips^in" t1) s(w, a0, a1, v, e0, e1)) g GROUP BY w, a0, a1;
-- potAmount
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_pot^sum" t1) u(w, a0, a1, a2);
-- contests
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a1 FROM "p_level" t1, "p_live" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND (t2.a2 >= t1.a1)) u(w, a0, a1, a2);
-- contestants
SELECT w, a0, a1, count(*) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_contests" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- shows
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_contests" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_unshown" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a2)) u(w, a0, a1, a2);
-- shownIn
SELECT w, a0, a1, count(*) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_shows" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- hasShown
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_shows" t1) u(w, a0, a1);
-- unjudged
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_level" t1, "p_contestants" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND (t2.a2 > CAST(1 AS BIGINT)) AND NOT EXISTS (SELECT 1 FROM "p_has^shown" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t1.a1)) u(w, a0, a1);
-- takes
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, CAST(1 AS BIGINT), t1.a2 FROM "p_contests" t1, "p_contestants" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND (t2.a2 = CAST(1 AS BIGINT)) UNION SELECT t3.w, t3.a0, t3.a1, CAST(1 AS BIGINT), t3.a2 FROM "p_shows" t3, "p_shown^in" t4, "p_contestants" t5 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND (t4.a2 = CAST(1 AS BIGINT)) AND t5.w = t3.w AND t5.a0 = t3.a0 AND t5.a1 = t3.a1 AND (t5.a2 > CAST(1 AS BIGINT)) UNION SELECT t6.w, t6.a0, t6.a1, CAST(1 AS BIGINT), t6.a2 FROM "p_shows" t6, "p_pot^high" t7, "p_shown^in" t8 WHERE t7.w = t6.w AND t7.a0 = t6.a0 AND t7.a1 = t6.a1 AND t7.a2 = t6.a2 AND t8.w = t6.w AND t8.a0 = t6.a0 AND t8.a1 = t6.a1 AND (t8.a2 > CAST(1 AS BIGINT)) UNION SELECT t9.w, t9.a0, t9.a1, CAST(2 AS BIGINT), t9.a2 FROM "p_shows" t9, "p_pot^low" t10, "p_shown^in" t11 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t10.a1 = t9.a1 AND t10.a2 = t9.a2 AND t11.w = t9.w AND t11.a0 = t9.a0 AND t11.a1 = t9.a1 AND (t11.a2 > CAST(1 AS BIGINT))) u(w, a0, a1, a2, a3);
-- halved
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_takes" t1 WHERE t1.a2 = CAST(2 AS BIGINT)) u(w, a0, a1);
-- half
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, CAST(1 AS BIGINT), t1.a2 FROM "p_pot^amount" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_halved" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) UNION SELECT t3.w, t3.a0, t3.a1, CAST(1 AS BIGINT), (t3.a2 - (((t3.a2) - (((t3.a2) % NULLIF(CAST(2 AS BIGINT), 0)) + NULLIF(CAST(2 AS BIGINT), 0)) % NULLIF(CAST(2 AS BIGINT), 0)) // NULLIF(CAST(2 AS BIGINT), 0))) FROM "p_pot^amount" t3, "p_halved" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 UNION SELECT t5.w, t5.a0, t5.a1, CAST(2 AS BIGINT), (((t5.a2) - (((t5.a2) % NULLIF(CAST(2 AS BIGINT), 0)) + NULLIF(CAST(2 AS BIGINT), 0)) % NULLIF(CAST(2 AS BIGINT), 0)) // NULLIF(CAST(2 AS BIGINT), 0)) FROM "p_pot^amount" t5, "p_halved" t6 WHERE t6.w = t5.w AND t6.a0 = t5.a0 AND t6.a1 = t5.a1) u(w, a0, a1, a2, a3);
-- takers
SELECT w, a0, a1, a2, count(*) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3 FROM "p_takes" t1) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- takesBefore
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3, t2.a3 FROM "p_takes" t1, "p_takes" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2 AND (t2.a3 < t1.a3)) u(w, a0, a1, a2, a3, a4);
-- hasBefore
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3 FROM "p_takes^before" t1) u(w, a0, a1, a2, a3);
-- placeOf
SELECT w, a0, a1, a2, a3, count(*) AS a4 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3, t1.a4 FROM "p_takes^before" t1) s(w, a0, a1, a2, a3, v)) g GROUP BY w, a0, a1, a2, a3;
-- place
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3, t1.a4 FROM "p_place^of" t1 UNION SELECT t2.w, t2.a0, t2.a1, t2.a2, t2.a3, CAST(0 AS BIGINT) FROM "p_takes" t2 WHERE NOT EXISTS (SELECT 1 FROM "p_has^before" t3 WHERE t3.w = t2.w AND t3.a0 = t2.a0 AND t3.a1 = t2.a1 AND t3.a2 = t2.a2 AND t3.a3 = t2.a3)) u(w, a0, a1, a2, a3, a4);
-- award
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t3.a3, ((((t1.a3) - (((t1.a3) % NULLIF(t2.a3, 0)) + NULLIF(t2.a3, 0)) % NULLIF(t2.a3, 0)) // NULLIF(t2.a3, 0)) + CAST(1 AS BIGINT)) FROM "p_half" t1, "p_takers" t2, "p_place" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = t1.a1 AND t3.a2 = t1.a2 AND (t3.a4 < ((((t1.a3) % NULLIF(t2.a3, 0)) + NULLIF(t2.a3, 0)) % NULLIF(t2.a3, 0))) UNION SELECT t4.w, t4.a0, t4.a1, t4.a2, t6.a3, (((t4.a3) - (((t4.a3) % NULLIF(t5.a3, 0)) + NULLIF(t5.a3, 0)) % NULLIF(t5.a3, 0)) // NULLIF(t5.a3, 0)) FROM "p_half" t4, "p_takers" t5, "p_place" t6 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a1 AND t5.a2 = t4.a2 AND t6.w = t4.w AND t6.a0 = t4.a0 AND t6.a1 = t4.a1 AND t6.a2 = t4.a2 AND (t6.a4 >= ((((t4.a3) % NULLIF(t5.a3, 0)) + NULLIF(t5.a3, 0)) % NULLIF(t5.a3, 0)))) u(w, a0, a1, a2, a3, a4);
-- categoryName
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(64 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(77 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(103 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(99 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT), CAST(89 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(54 AS BIGINT) UNION ALL SELECT CAST(7 AS BIGINT), CAST(58 AS BIGINT) UNION ALL SELECT CAST(8 AS BIGINT), CAST(56 AS BIGINT) UNION ALL SELECT CAST(9 AS BIGINT), CAST(90 AS BIGINT) UNION ALL SELECT CAST(10 AS BIGINT), CAST(82 AS BIGINT)) u(a0, a1);
-- whyNotHand
SELECT * FROM (SELECT t1.w, t1.a0, CAST(33 AS BIGINT) FROM "p_duplicate" t1 UNION ALL SELECT t2.w, t2.a0, CAST(43 AS BIGINT) FROM "p_foreign" t2 UNION ALL SELECT DISTINCT * FROM (SELECT t3.w, t3.a0, CAST(38 AS BIGINT) FROM "p_is^set^card" t3, "p_size" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND (t4.a1 <> CAST(5 AS BIGINT))) d) u(w, a0, a1);
-- roleCode
SELECT * FROM (SELECT CAST(51 AS BIGINT), CAST(1 AS BIGINT), CAST(10 AS BIGINT) UNION ALL SELECT CAST(51 AS BIGINT), CAST(2 AS BIGINT), CAST(21 AS BIGINT) UNION ALL SELECT CAST(51 AS BIGINT), CAST(3 AS BIGINT), CAST(7 AS BIGINT) UNION ALL SELECT CAST(51 AS BIGINT), CAST(4 AS BIGINT), CAST(5 AS BIGINT) UNION ALL SELECT CAST(51 AS BIGINT), CAST(5 AS BIGINT), CAST(3 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(1 AS BIGINT), CAST(27 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(2 AS BIGINT), CAST(29 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(3 AS BIGINT), CAST(22 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(4 AS BIGINT), CAST(30 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(5 AS BIGINT), CAST(12 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(6 AS BIGINT), CAST(9 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(7 AS BIGINT), CAST(11 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(1 AS BIGINT), CAST(27 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(2 AS BIGINT), CAST(29 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(3 AS BIGINT), CAST(22 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(4 AS BIGINT), CAST(30 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(5 AS BIGINT), CAST(12 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(6 AS BIGINT), CAST(9 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(7 AS BIGINT), CAST(11 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(8 AS BIGINT), CAST(10 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(9 AS BIGINT), CAST(21 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(10 AS BIGINT), CAST(7 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(11 AS BIGINT), CAST(5 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(12 AS BIGINT), CAST(3 AS BIGINT) UNION ALL SELECT CAST(51 AS BIGINT), CAST(6 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(8 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(13 AS BIGINT), CAST(1 AS BIGINT)) u(a0, a1, a2);
-- roleNone
SELECT * FROM (SELECT CAST(51 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(81 AS BIGINT), CAST(0 AS BIGINT) UNION ALL SELECT CAST(42 AS BIGINT), CAST(1 AS BIGINT)) u(a0, a1);
-- rolePositions
SELECT w, a0, count(DISTINCT v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_holds" t1) s(w, a0, v)) g GROUP BY w, a0;
-- fivePositions
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_role^positions" t1 WHERE t1.a1 = CAST(5 AS BIGINT)) u(w, a0);
-- roleInput
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_declared" t1, "p_five^positions" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND NOT EXISTS (SELECT 1 FROM "p_foreign" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a0)) u(w, a0);
-- roleCard
SELECT * FROM (SELECT t1.w, t1.a0, t2.a1, t3.a1, t4.a1 FROM "p_role^input" t1, "p_holds" t2, "p_get^value$static" t3, "p_get^suit$static" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a2 AND t4.a0 = t2.a2 UNION SELECT t5.w, t5.a0, t6.a1, t7.a1, t8.a1 FROM "p_role^input" t5, "p_holds" t6, "p_get^value$static" t7, "p_get^suit$world" t8 WHERE t6.w = t5.w AND t6.a0 = t5.a0 AND t7.a0 = t6.a2 AND t8.w = t5.w AND t8.a0 = t6.a2 UNION SELECT t9.w, t9.a0, t10.a1, t11.a1, t12.a1 FROM "p_role^input" t9, "p_holds" t10, "p_get^value$world" t11, "p_get^suit$static" t12 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t11.w = t9.w AND t11.a0 = t10.a2 AND t12.a0 = t10.a2 UNION SELECT t13.w, t13.a0, t14.a1, t15.a1, t16.a1 FROM "p_role^input" t13, "p_holds" t14, "p_get^value$world" t15, "p_get^suit$world" t16 WHERE t14.w = t13.w AND t14.a0 = t13.a0 AND t15.w = t13.w AND t15.a0 = t14.a2 AND t16.w = t13.w AND t16.a0 = t14.a2) u(w, a0, a1, a2, a3);
-- demand$getValue$static <- roleCard#0.0
SELECT DISTINCT t1.a2 FROM "p_holds" t1;
-- demand$getSuit$static <- roleCard#0.1
SELECT DISTINCT t1.a2 FROM "p_holds" t1;
-- demand$getValue$static <- roleCard#1.0
SELECT DISTINCT t1.a2 FROM "p_holds" t1;
-- demand$getSuit$static <- roleCard#2.0
SELECT DISTINCT t1.a2 FROM "p_holds" t1;
-- repeatsCard
SELECT * FROM (SELECT t1.w, t1.a0 FROM "p_role^input" t1, "p_duplicate" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0) u(w, a0);
-- roleWarning
SELECT * FROM (SELECT t1.w, t1.a0, CAST(35 AS BIGINT) FROM "p_repeats^card" t1) u(w, a0, a1);
-- roleError
SELECT * FROM (SELECT t1.w, t1.a0, CAST(43 AS BIGINT) FROM "p_declared" t1, "p_foreign" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 UNION ALL SELECT t3.w, t3.a0, CAST(38 AS BIGINT) FROM "p_declared" t3 WHERE NOT EXISTS (SELECT 1 FROM "p_foreign" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0) AND NOT EXISTS (SELECT 1 FROM "p_five^positions" t5 WHERE t5.w = t3.w AND t5.a0 = t3.a0)) u(w, a0, a1);
-- categoryRole
SELECT * FROM (SELECT CAST(82 AS BIGINT), CAST(27 AS BIGINT) UNION ALL SELECT CAST(90 AS BIGINT), CAST(29 AS BIGINT) UNION ALL SELECT CAST(56 AS BIGINT), CAST(10 AS BIGINT) UNION ALL SELECT CAST(58 AS BIGINT), CAST(21 AS BIGINT) UNION ALL SELECT CAST(54 AS BIGINT), CAST(22 AS BIGINT) UNION ALL SELECT CAST(89 AS BIGINT), CAST(30 AS BIGINT) UNION ALL SELECT CAST(99 AS BIGINT), CAST(7 AS BIGINT) UNION ALL SELECT CAST(103 AS BIGINT), CAST(5 AS BIGINT) UNION ALL SELECT CAST(77 AS BIGINT), CAST(3 AS BIGINT)) u(a0, a1);
-- runValue
SELECT * FROM (SELECT t1.a0, t1.a0 FROM "p_value^name" t1 UNION SELECT CAST(1 AS BIGINT), CAST(14 AS BIGINT)) u(a0, a1);
-- runHas
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t2.a1 FROM "p_role^card" t1, "p_run^value" t2 WHERE t2.a0 = t1.a2) u(w, a0, a1);
-- fourRun
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_run^has" t1, "p_run^has" t2, "p_run^has" t3, "p_run^has" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = (t1.a1 + CAST(1 AS BIGINT)) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = (t1.a1 + CAST(2 AS BIGINT)) AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = (t1.a1 + CAST(3 AS BIGINT))) u(w, a0, a1);
-- fiveRun
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_four^run" t1, "p_run^has" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = (t1.a1 + CAST(4 AS BIGINT))) u(w, a0, a1);
-- runHasSuit
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t2.a1, t1.a3 FROM "p_role^card" t1, "p_run^value" t2 WHERE t2.a0 = t1.a2) u(w, a0, a1, a2);
-- fourRunSuit
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_run^has^suit" t1, "p_run^has^suit" t2, "p_run^has^suit" t3, "p_run^has^suit" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = (t1.a1 + CAST(1 AS BIGINT)) AND t2.a2 = t1.a2 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t3.a1 = (t1.a1 + CAST(2 AS BIGINT)) AND t3.a2 = t1.a2 AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = (t1.a1 + CAST(3 AS BIGINT)) AND t4.a2 = t1.a2) u(w, a0, a1, a2);
-- fiveRunSuit
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_four^run^suit" t1, "p_run^has^suit" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = (t1.a1 + CAST(4 AS BIGINT)) AND t2.a2 = t1.a2) u(w, a0, a1, a2);
-- roleSuitCount
SELECT w, a0, a1, count(DISTINCT v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a3, t1.a1 FROM "p_role^card" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- roleValueCount
SELECT w, a0, a1, count(DISTINCT v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a2, t1.a1 FROM "p_role^card" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- hasRole
SELECT * FROM (SELECT t1.w, t1.a0, t5.a1 FROM "p_role^input" t1, "p_is^hand" t2, "p_get^rank" t3, "p_category^name" t4, "p_category^role" t5 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.a0 = t3.a1 AND t5.a0 = t4.a1 UNION SELECT t6.w, t6.a0, CAST(12 AS BIGINT) FROM "p_four^run^suit" t6 UNION SELECT t7.w, t7.a0, CAST(9 AS BIGINT) FROM "p_role^suit^count" t7 WHERE (t7.a2 >= CAST(4 AS BIGINT)) UNION SELECT t8.w, t8.a0, CAST(11 AS BIGINT) FROM "p_four^run" t8 UNION SELECT t9.w, t9.a0, CAST(27 AS BIGINT) FROM "p_repeats^card" t9, "p_five^run^suit" t10 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t10.a1 = CAST(10 AS BIGINT) UNION SELECT t11.w, t11.a0, CAST(29 AS BIGINT) FROM "p_repeats^card" t11, "p_five^run^suit" t12 WHERE t12.w = t11.w AND t12.a0 = t11.a0 UNION SELECT t13.w, t13.a0, CAST(22 AS BIGINT) FROM "p_repeats^card" t13, "p_role^suit^count" t14 WHERE t14.w = t13.w AND t14.a0 = t13.a0 AND t14.a2 = CAST(5 AS BIGINT) UNION SELECT t15.w, t15.a0, CAST(30 AS BIGINT) FROM "p_repeats^card" t15, "p_five^run" t16 WHERE t16.w = t15.w AND t16.a0 = t15.a0 UNION SELECT t17.w, t17.a0, CAST(10 AS BIGINT) FROM "p_repeats^card" t17, "p_role^value^count" t18 WHERE t18.w = t17.w AND t18.a0 = t17.a0 AND (t18.a2 >= CAST(4 AS BIGINT)) UNION SELECT t19.w, t19.a0, CAST(21 AS BIGINT) FROM "p_repeats^card" t19, "p_role^value^count" t20, "p_role^value^count" t21 WHERE t20.w = t19.w AND t20.a0 = t19.a0 AND (t20.a2 >= CAST(3 AS BIGINT)) AND t21.w = t19.w AND t21.a0 = t19.a0 AND (t21.a2 >= CAST(2 AS BIGINT)) AND (t21.a1 <> t20.a1) UNION SELECT t22.w, t22.a0, CAST(7 AS BIGINT) FROM "p_repeats^card" t22, "p_role^value^count" t23 WHERE t23.w = t22.w AND t23.a0 = t22.a0 AND (t23.a2 >= CAST(3 AS BIGINT)) UNION SELECT t24.w, t24.a0, CAST(5 AS BIGINT) FROM "p_repeats^card" t24, "p_role^value^count" t25, "p_role^value^count" t26 WHERE t25.w = t24.w AND t25.a0 = t24.a0 AND (t25.a2 >= CAST(2 AS BIGINT)) AND t26.w = t24.w AND t26.a0 = t24.a0 AND (t26.a2 >= CAST(2 AS BIGINT)) AND (t26.a1 <> t25.a1) UNION SELECT t27.w, t27.a0, CAST(3 AS BIGINT) FROM "p_repeats^card" t27, "p_role^value^count" t28 WHERE t28.w = t27.w AND t28.a0 = t27.a0 AND (t28.a2 >= CAST(2 AS BIGINT))) u(w, a0, a1);
-- roleHolds
SELECT * FROM (SELECT t1.w, t1.a0, t2.a0, t2.a1 FROM "p_has^role" t1, "p_role^code" t2 WHERE t2.a2 = t1.a1 UNION SELECT t3.w, t3.a0, t4.a0, t5.a1 FROM "p_role^input" t3, "p_role^none" t4, "p_role^code" t5 WHERE t5.a0 = t4.a0 AND t5.a2 = t4.a1) u(w, a0, a1, a2);
-- roleBest
SELECT w, a0, a1, min(v) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_role^holds" t1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- roleOf
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_role^best" t1, "p_role^code" t2 WHERE t2.a0 = t1.a1 AND t2.a1 = t1.a2) u(w, a0, a1, a2);
-- gameName
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(65 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(75 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(66 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(76 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT), CAST(92 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(93 AS BIGINT)) u(a0, a1);
-- holeCards
SELECT * FROM (SELECT CAST(1 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(4 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(4 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT), CAST(7 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(7 AS BIGINT)) u(a0, a1);
-- usesOwn
SELECT * FROM (SELECT CAST(2 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(2 AS BIGINT)) u(a0, a1);
-- splitLow
SELECT * FROM (SELECT CAST(3 AS BIGINT), CAST(49 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(49 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(49 AS BIGINT)) u(a0, a1);
-- noBoard
SELECT * FROM (SELECT CAST(5 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT)) u(a0);
-- boardCards
SELECT * FROM (SELECT CAST(3 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT) UNION ALL SELECT CAST(5 AS BIGINT)) u(a0);
-- ownCard
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t3.a1 FROM "p_demand$own^card" t1, "p_candidate" t2, "p_member" t3, "p_member" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a1 AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t3.a1) u(w, a0, a1, a2);
-- hasOwn
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$has^own" t1, "p_own^card" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) u(w, a0, a1);
-- demand$ownCard <- hasOwn#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$has^own" t1;
-- ownCount
SELECT w, a0, a1, count(*) AS a2 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t2.a2 FROM "p_demand$own^count" t1, "p_own^card" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) s(w, a0, a1, v)) g GROUP BY w, a0, a1;
-- demand$ownCard <- ownCount#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$own^count" t1;
-- owns
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_demand$owns" t1, "p_own^count" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2 UNION SELECT t3.w, t3.a0, t3.a1, CAST(0 AS BIGINT) FROM "p_demand$owns" t3, "p_candidate" t4 WHERE t3.a2 = CAST(0 AS BIGINT) AND t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND NOT EXISTS (SELECT 1 FROM "p_has^own" t5 WHERE t5.w = t3.w AND t5.a0 = t3.a0 AND t5.a1 = t3.a1)) u(w, a0, a1, a2);
-- demand$ownCount <- owns#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$owns" t1;
-- demand$hasOwn <- owns#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_demand$owns" t1, "p_candidate" t2 WHERE t1.a2 = CAST(0 AS BIGINT) AND t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1;
-- restricted
SELECT DISTINCT * FROM (SELECT t1.a0 FROM "p_uses^own" t1) u(a0);
-- mayPlay
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_candidate" t1, "p_is^hand" t2, "p_seat" t3, "p_game" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a1 AND t3.w = t1.w AND t3.a1 = t1.a0 AND t4.w = t1.w AND t4.a0 = t3.a0 AND NOT EXISTS (SELECT 1 FROM "p_restricted" t5 WHERE t5.a0 = t4.a1) UNION SELECT t6.w, t6.a0, t6.a1 FROM "p_candidate" t6, "p_is^hand" t7, "p_seat" t8, "p_game" t9, "p_uses^own" t10, "p_owns" t11 WHERE t7.w = t6.w AND t7.a0 = t6.a1 AND t8.w = t6.w AND t8.a1 = t6.a0 AND t9.w = t6.w AND t9.a0 = t8.a0 AND t10.a0 = t9.a1 AND t11.w = t6.w AND t11.a0 = t6.a0 AND t11.a1 = t6.a1 AND t11.a2 = t10.a1) u(w, a0, a1);
-- demand$owns <- mayPlay#1.0
SELECT DISTINCT t1.w, t1.a0, t1.a1, t3.a1 FROM "p_candidate" t1, "p_is^hand" t2, "p_uses^own" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a1;
-- outranked
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$outranked" t1, "p_may^play" t2, "p_may^play" t3, "p_rank^order" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.w = t1.w AND t4.a0 = t3.a1 AND t4.a1 = t1.a1 AND t4.a2 = CAST(1 AS BIGINT)) u(w, a0, a1);
-- demand$rankOrder <- outranked#0.0
SELECT DISTINCT t1.w, t3.a1, t1.a1 FROM "p_demand$outranked" t1, "p_may^play" t2, "p_may^play" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0;
-- bestRanked
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_may^play" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_outranked" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1)) u(w, a0, a1);
-- demand$outranked <- bestRanked#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_may^play" t1;
-- outplayed
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$outplayed" t1, "p_best^ranked" t2, "p_best^ranked" t3, "p_compare^hands" t4 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.w = t1.w AND t4.a0 = t3.a1 AND t4.a1 = t1.a1 AND t4.a2 = CAST(1 AS BIGINT)) u(w, a0, a1);
-- demand$compareHands <- outplayed#0.0
SELECT DISTINCT t1.w, t3.a1, t1.a1 FROM "p_demand$outplayed" t1, "p_best^ranked" t2, "p_best^ranked" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0;
-- plays
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_best^ranked" t1 WHERE NOT EXISTS (SELECT 1 FROM "p_outplayed" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1)) u(w, a0, a1);
-- demand$outplayed <- plays#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_best^ranked" t1;
-- studOwn
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, (t4.a1 - t5.a1) FROM "p_board" t1, "p_game" t2, "p_no^board" t3, "p_hole^cards" t4, "p_size" t5 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1 AND t4.a0 = t2.a1 AND t5.w = t1.w AND t5.a0 = t1.a1) u(w, a0, a1);
-- whyNotSeat
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, CAST(34 AS BIGINT) FROM "p_seat" t1, "p_board" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND NOT EXISTS (SELECT 1 FROM "p_is^set^card" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a1) UNION SELECT t4.w, t4.a0, t4.a1, CAST(96 AS BIGINT) FROM "p_seat" t4, "p_game" t5, "p_hole^cards" t6 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t6.a0 = t5.a1 AND NOT EXISTS (SELECT 1 FROM "p_no^board" t7 WHERE t7.a0 = t5.a1) AND NOT EXISTS (SELECT 1 FROM "p_size" t8 WHERE t8.w = t4.w AND t8.a0 = t4.a1 AND t8.a1 = t6.a1) UNION SELECT t9.w, t9.a0, t9.a1, CAST(96 AS BIGINT) FROM "p_seat" t9, "p_game" t10, "p_no^board" t11, "p_stud^own" t12 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t11.a0 = t10.a1 AND t12.w = t9.w AND t12.a0 = t9.a0 AND NOT EXISTS (SELECT 1 FROM "p_size" t13 WHERE t13.w = t9.w AND t13.a0 = t9.a1 AND t13.a1 = t12.a1)) u(w, a0, a1, a2);
-- whyNotShowdown
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_why^not^seat" t1 UNION SELECT t2.w, t2.a0, t2.a1, CAST(34 AS BIGINT) FROM "p_board" t2 WHERE NOT EXISTS (SELECT 1 FROM "p_is^set^card" t3 WHERE t3.w = t2.w AND t3.a0 = t2.a1) UNION SELECT t4.w, t4.a0, t4.a1, CAST(32 AS BIGINT) FROM "p_board" t4, "p_game" t5, "p_size" t7 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND NOT EXISTS (SELECT 1 FROM "p_no^board" t6 WHERE t6.a0 = t5.a1) AND t7.w = t4.w AND t7.a0 = t4.a1 AND NOT EXISTS (SELECT 1 FROM "p_board^cards" t8 WHERE t8.a0 = t7.a1) UNION SELECT t9.w, t9.a0, t9.a1, CAST(39 AS BIGINT) FROM "p_board" t9, "p_game" t10, "p_no^board" t11, "p_size" t12 WHERE t10.w = t9.w AND t10.a0 = t9.a0 AND t11.a0 = t10.a1 AND t12.w = t9.w AND t12.a0 = t9.a1 AND (t12.a1 > CAST(2 AS BIGINT)) UNION SELECT t13.w, t13.a0, t13.a1, CAST(37 AS BIGINT) FROM "p_seat" t13, "p_board" t14, "p_share^card" t15 WHERE t14.w = t13.w AND t14.a0 = t13.a0 AND t15.w = t13.w AND t15.a0 = t13.a1 AND t15.a1 = t14.a1 UNION SELECT t16.w, t16.a0, t16.a1, CAST(36 AS BIGINT) FROM "p_seat" t16, "p_seat" t17, "p_share^card" t18 WHERE t17.w = t16.w AND t17.a0 = t16.a0 AND (t17.a1 < t16.a1) AND t18.w = t16.w AND t18.a0 = t16.a1 AND t18.a1 = t17.a1) u(w, a0, a1, a2);
-- demand$shareCard <- whyNotShowdown#4.0
SELECT DISTINCT t1.w, t1.a1, t2.a1 FROM "p_seat" t1, "p_board" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0;
-- demand$shareCard <- whyNotShowdown#5.0
SELECT DISTINCT t1.w, t1.a1, t2.a1 FROM "p_seat" t1, "p_seat" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0;
-- invalidShowdown
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0 FROM "p_why^not^showdown" t1) u(w, a0);
-- outdrawn
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_demand$outdrawn" t1, "p_seat" t2, "p_seat" t3, "p_plays" t4, "p_plays" t5, "p_compare^hands" t6 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t3.w = t1.w AND t3.a0 = t1.a0 AND (t3.a1 <> t1.a1) AND t4.w = t1.w AND t4.a0 = t1.a1 AND t5.w = t1.w AND t5.a0 = t3.a1 AND t6.w = t1.w AND t6.a0 = t5.a1 AND t6.a1 = t4.a1 AND t6.a2 = CAST(1 AS BIGINT)) u(w, a0, a1);
-- demand$compareHands <- outdrawn#0.0
SELECT DISTINCT t1.w, t2.a1, t1.a1 FROM "p_plays" t1, "p_plays" t2 WHERE t2.w = t1.w;
-- showdownWinner
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_seat" t1, "p_board" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND NOT EXISTS (SELECT 1 FROM "p_invalid^showdown" t3 WHERE t3.w = t1.w AND t3.a0 = t1.a0) AND NOT EXISTS (SELECT 1 FROM "p_outdrawn" t4 WHERE t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t1.a1)) u(w, a0, a1);
-- demand$outdrawn <- showdownWinner#0.0
SELECT DISTINCT t1.w, t1.a0, t1.a1 FROM "p_seat" t1;
-- studHand
SELECT * FROM (SELECT CAST(5 AS BIGINT), CAST(63 AS BIGINT) UNION ALL SELECT CAST(6 AS BIGINT), CAST(63 AS BIGINT)) u(a0, a1);
-- studValue
SELECT * FROM (SELECT t1.a0, t2.a0, t2.a1 FROM "p_stud^hand" t1, "p_range^order" t2 WHERE t1.a1 = CAST(63 AS BIGINT) UNION SELECT t3.a0, t4.a0, t4.a0 FROM "p_stud^hand" t3, "p_value^name" t4 WHERE t3.a1 = CAST(71 AS BIGINT)) u(a0, a1, a2);
-- bringInSuit
SELECT * FROM (SELECT CAST(3 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(2 AS BIGINT) UNION ALL SELECT CAST(1 AS BIGINT), CAST(3 AS BIGINT) UNION ALL SELECT CAST(4 AS BIGINT), CAST(4 AS BIGINT)) u(a0, a1);
-- upKey
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, ((CAST(4 AS BIGINT) * t5.a2) + t7.a1) FROM "p_up^card" t1, "p_game" t3, "p_get^value$static" t4, "p_stud^value" t5, "p_get^suit$static" t6, "p_bring^in^suit" t7 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.a0 = t1.a2 AND t5.a0 = t3.a1 AND t5.a1 = t4.a1 AND t6.a0 = t1.a2 AND t7.a0 = t6.a1 UNION SELECT t8.w, t8.a0, t8.a1, ((CAST(4 AS BIGINT) * t12.a2) + t14.a1) FROM "p_up^card" t8, "p_game" t10, "p_get^value$static" t11, "p_stud^value" t12, "p_get^suit$world" t13, "p_bring^in^suit" t14 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t9 WHERE t9.w = t8.w AND t9.a0 = t8.a0 AND t9.a1 = t8.a1) AND t10.w = t8.w AND t10.a0 = t8.a0 AND t11.a0 = t8.a2 AND t12.a0 = t10.a1 AND t12.a1 = t11.a1 AND t13.w = t8.w AND t13.a0 = t8.a2 AND t14.a0 = t13.a1 UNION SELECT t15.w, t15.a0, t15.a1, ((CAST(4 AS BIGINT) * t19.a2) + t21.a1) FROM "p_up^card" t15, "p_game" t17, "p_get^value$world" t18, "p_stud^value" t19, "p_get^suit$static" t20, "p_bring^in^suit" t21 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t16 WHERE t16.w = t15.w AND t16.a0 = t15.a0 AND t16.a1 = t15.a1) AND t17.w = t15.w AND t17.a0 = t15.a0 AND t18.w = t15.w AND t18.a0 = t15.a2 AND t19.a0 = t17.a1 AND t19.a1 = t18.a1 AND t20.a0 = t15.a2 AND t21.a0 = t20.a1 UNION SELECT t22.w, t22.a0, t22.a1, ((CAST(4 AS BIGINT) * t26.a2) + t28.a1) FROM "p_up^card" t22, "p_game" t24, "p_get^value$world" t25, "p_stud^value" t26, "p_get^suit$world" t27, "p_bring^in^suit" t28 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t23 WHERE t23.w = t22.w AND t23.a0 = t22.a0 AND t23.a1 = t22.a1) AND t24.w = t22.w AND t24.a0 = t22.a0 AND t25.w = t22.w AND t25.a0 = t22.a2 AND t26.a0 = t24.a1 AND t26.a1 = t25.a1 AND t27.w = t22.w AND t27.a0 = t22.a2 AND t28.a0 = t27.a1) u(w, a0, a1, a2);
-- demand$getValue$static <- upKey#0.0
SELECT DISTINCT t1.a2 FROM "p_up^card" t1;
-- demand$getSuit$static <- upKey#0.1
SELECT DISTINCT t1.a2 FROM "p_up^card" t1;
-- demand$getValue$static <- upKey#1.0
SELECT DISTINCT t1.a2 FROM "p_up^card" t1;
-- demand$getSuit$static <- upKey#2.0
SELECT DISTINCT t1.a2 FROM "p_up^card" t1;
-- lowestUp
SELECT w, a0, min(v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_up^key" t1) s(w, a0, v)) g GROUP BY w, a0;
-- highestUp
SELECT w, a0, max(v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_up^key" t1) s(w, a0, v)) g GROUP BY w, a0;
-- bringsIn
SELECT * FROM (SELECT t1.w, t1.a0, t3.a1 FROM "p_game" t1, "p_stud^hand" t2, "p_up^key" t3, "p_lowest^up" t4 WHERE t2.a0 = t1.a1 AND t2.a1 = CAST(63 AS BIGINT) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t3.a2 UNION SELECT t5.w, t5.a0, t7.a1 FROM "p_game" t5, "p_stud^hand" t6, "p_up^key" t7, "p_highest^up" t8 WHERE t6.a0 = t5.a1 AND t6.a1 = CAST(71 AS BIGINT) AND t7.w = t5.w AND t7.a0 = t5.a0 AND t8.w = t5.w AND t8.a0 = t5.a0 AND t8.a1 = t7.a2) u(w, a0, a1);
-- showWeight
SELECT * FROM (SELECT CAST(0 AS BIGINT), CAST(268435456 AS BIGINT), CAST(4096 AS BIGINT) UNION ALL SELECT CAST(1 AS BIGINT), CAST(16777216 AS BIGINT), CAST(256 AS BIGINT) UNION ALL SELECT CAST(2 AS BIGINT), CAST(1048576 AS BIGINT), CAST(16 AS BIGINT) UNION ALL SELECT CAST(3 AS BIGINT), CAST(65536 AS BIGINT), CAST(1 AS BIGINT)) u(a0, a1, a2);
-- showCount
SELECT w, a0, a1, a2, count(DISTINCT v) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t3.a1, t1.a2 FROM "p_up^card" t1, "p_get^value$static" t3 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1) AND t3.a0 = t1.a2 UNION ALL SELECT t4.w, t4.a0, t4.a1, t6.a1, t4.a2 FROM "p_up^card" t4, "p_get^value$world" t6 WHERE NOT EXISTS (SELECT 1 FROM "p_folded" t5 WHERE t5.w = t4.w AND t5.a0 = t4.a0 AND t5.a1 = t4.a1) AND t6.w = t4.w AND t6.a0 = t4.a2) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- demand$getValue$static <- showCount#0.0
SELECT DISTINCT t1.a2 FROM "p_up^card" t1;
-- showing
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3, t3.a2 FROM "p_show^count" t1, "p_game" t2, "p_stud^value" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t3.a0 = t2.a1 AND t3.a1 = t1.a2) u(w, a0, a1, a2, a3, a4);
-- showsBefore
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t2.a2 FROM "p_showing" t1, "p_showing" t2 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND (t2.a3 > t1.a3) UNION SELECT t3.w, t3.a0, t3.a1, t3.a2, t4.a2 FROM "p_showing" t3, "p_showing" t4 WHERE t4.w = t3.w AND t4.a0 = t3.a0 AND t4.a1 = t3.a1 AND (t4.a3 = t3.a3) AND (t4.a4 > t3.a4)) u(w, a0, a1, a2, a3);
-- hasShownBefore
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_shows^before" t1) u(w, a0, a1, a2);
-- showPlaceOf
SELECT w, a0, a1, a2, count(*) AS a3 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3 FROM "p_shows^before" t1) s(w, a0, a1, a2, v)) g GROUP BY w, a0, a1, a2;
-- showPlace
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, t1.a3 FROM "p_show^place^of" t1 UNION SELECT t2.w, t2.a0, t2.a1, t2.a2, CAST(0 AS BIGINT) FROM "p_showing" t2 WHERE NOT EXISTS (SELECT 1 FROM "p_has^shown^before" t3 WHERE t3.w = t2.w AND t3.a0 = t2.a0 AND t3.a1 = t2.a1 AND t3.a2 = t2.a2)) u(w, a0, a1, a2, a3);
-- showDigit
SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2, ((t2.a3 * t3.a1) + (t2.a4 * t3.a2)) FROM "p_show^place" t1, "p_showing" t2, "p_show^weight" t3 WHERE t2.w = t1.w AND t2.a0 = t1.a0 AND t2.a1 = t1.a1 AND t2.a2 = t1.a2 AND t3.a0 = t1.a3) u(w, a0, a1, a2, a3);
-- showSum
SELECT w, a0, a1, CAST(sum(v) AS BIGINT) AS a2 FROM (SELECT DISTINCT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a3, t1.a2 FROM "p_show^digit" t1) s(w, a0, a1, v, e0)) g GROUP BY w, a0, a1;
-- showValue
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1, t1.a2 FROM "p_show^sum" t1) u(w, a0, a1, a2);
-- bestShown
SELECT w, a0, max(v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_show^value" t1) s(w, a0, v)) g GROUP BY w, a0;
-- lowestShown
SELECT w, a0, min(v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a2 FROM "p_show^value" t1) s(w, a0, v)) g GROUP BY w, a0;
-- showsBest
SELECT * FROM (SELECT t1.w, t1.a0, t3.a1 FROM "p_game" t1, "p_stud^hand" t2, "p_show^value" t3, "p_best^shown" t4 WHERE t2.a0 = t1.a1 AND t2.a1 = CAST(63 AS BIGINT) AND t3.w = t1.w AND t3.a0 = t1.a0 AND t4.w = t1.w AND t4.a0 = t1.a0 AND t4.a1 = t3.a2 UNION SELECT t5.w, t5.a0, t7.a1 FROM "p_game" t5, "p_stud^hand" t6, "p_show^value" t7, "p_lowest^shown" t8 WHERE t6.a0 = t5.a1 AND t6.a1 = CAST(71 AS BIGINT) AND t7.w = t5.w AND t7.a0 = t5.a0 AND t8.w = t5.w AND t8.a0 = t5.a0 AND t8.a1 = t7.a2) u(w, a0, a1);
-- firstShowing
SELECT w, a0, min(v) AS a1 FROM (SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_shows^best" t1) s(w, a0, v)) g GROUP BY w, a0;
-- opens
SELECT * FROM (SELECT t1.w, t1.a0, t1.a1 FROM "p_first^showing" t1) u(w, a0, a1);
