BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0001');
CREATE TABLE events (
	id INTEGER NOT NULL, 
	room VARCHAR(16) NOT NULL, 
	number INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	data JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_events_room_number UNIQUE (room, number), 
	FOREIGN KEY(room) REFERENCES rooms (code)
);
INSERT INTO "events" VALUES(1,'e26d75rp',1,'seat','{"seat": 0, "kind": "human", "name": "", "token": "4e449c9bc5ce1d06a1f724d253a50038345957e655c5125b0cf3be27a3d34152"}','2026-12-04 03:22:58.868938');
INSERT INTO "events" VALUES(2,'e26d75rp',2,'seat','{"seat": 1, "kind": "bot", "name": "rules bot"}','2026-12-04 03:22:58.870423');
INSERT INTO "events" VALUES(3,'e26d75rp',3,'seat','{"seat": 2, "kind": "bot", "name": "rules bot"}','2026-12-04 03:22:58.871154');
INSERT INTO "events" VALUES(4,'e26d75rp',4,'seat','{"seat": 3, "kind": "bot", "name": "rules bot"}','2026-12-04 03:22:58.871787');
INSERT INTO "events" VALUES(5,'e26d75rp',5,'start','{"match_seed": 18204119491706731430}','2026-12-04 03:22:58.872601');
INSERT INTO "events" VALUES(6,'e26d75rp',6,'deal','{"seed": 246551519649824900156857995918873128783, "commitment": "2c8118026b3821ea0bbb5a67bf88df3afae2d6ba02d3e021b06899586f461ada", "dealer": 3}','2026-12-04 03:22:58.873304');
INSERT INTO "events" VALUES(7,'e26d75rp',7,'move','{"seat": 0, "move": "hide 4C", "bot": false}','2026-12-04 03:22:58.887942');
INSERT INTO "events" VALUES(8,'e26d75rp',8,'move','{"seat": 0, "move": "5C", "bot": false}','2026-12-04 03:22:58.890453');
INSERT INTO "events" VALUES(9,'e26d75rp',9,'move','{"seat": 1, "move": "2C", "bot": true}','2026-12-04 03:22:58.905077');
INSERT INTO "events" VALUES(10,'e26d75rp',10,'move','{"seat": 2, "move": "3C", "bot": true}','2026-12-04 03:22:58.909616');
INSERT INTO "events" VALUES(11,'e26d75rp',11,'move','{"seat": 3, "move": "8C", "bot": true}','2026-12-04 03:22:58.912090');
INSERT INTO "events" VALUES(12,'e26d75rp',12,'move','{"seat": 3, "move": "AC", "bot": true}','2026-12-04 03:22:58.914204');
INSERT INTO "events" VALUES(13,'e26d75rp',13,'move','{"seat": 0, "move": "7C", "bot": false}','2026-12-04 03:22:58.922564');
INSERT INTO "events" VALUES(14,'e26d75rp',14,'move','{"seat": 1, "move": "10C", "bot": true}','2026-12-04 03:22:58.926372');
INSERT INTO "events" VALUES(15,'e26d75rp',15,'move','{"seat": 2, "move": "6C", "bot": true}','2026-12-04 03:22:58.932215');
INSERT INTO "events" VALUES(16,'e26d75rp',16,'move','{"seat": 3, "move": "3S", "bot": true}','2026-12-04 03:22:58.938989');
INSERT INTO "events" VALUES(17,'e26d75rp',17,'move','{"seat": 0, "move": "6S", "bot": false}','2026-12-04 03:22:58.941187');
INSERT INTO "events" VALUES(18,'e26d75rp',18,'move','{"seat": 1, "move": "QS", "bot": true}','2026-12-04 03:22:58.943414');
INSERT INTO "events" VALUES(19,'e26d75rp',19,'move','{"seat": 2, "move": "KS", "bot": true}','2026-12-04 03:22:58.945139');
INSERT INTO "events" VALUES(20,'e26d75rp',20,'move','{"seat": 2, "move": "3H", "bot": true}','2026-12-04 03:22:58.947213');
INSERT INTO "events" VALUES(21,'e26d75rp',21,'move','{"seat": 3, "move": "KH", "bot": true}','2026-12-04 03:22:58.949811');
INSERT INTO "events" VALUES(22,'e26d75rp',22,'move','{"seat": 0, "move": "6H", "bot": false}','2026-12-04 03:22:58.951525');
INSERT INTO "events" VALUES(23,'e26d75rp',23,'move','{"seat": 1, "move": "10H", "bot": true}','2026-12-04 03:22:58.953382');
INSERT INTO "events" VALUES(24,'e26d75rp',24,'move','{"seat": 3, "move": "2D", "bot": true}','2026-12-04 03:22:58.955502');
INSERT INTO "events" VALUES(25,'e26d75rp',25,'move','{"seat": 0, "move": "4D", "bot": false}','2026-12-04 03:22:58.957356');
INSERT INTO "events" VALUES(26,'e26d75rp',26,'move','{"seat": 1, "move": "9C", "bot": true}','2026-12-04 03:22:58.959515');
INSERT INTO "events" VALUES(27,'e26d75rp',27,'move','{"seat": 2, "move": "3D", "bot": true}','2026-12-04 03:22:58.962756');
INSERT INTO "events" VALUES(28,'e26d75rp',28,'move','{"seat": 1, "move": "2H", "bot": true}','2026-12-04 03:22:58.966387');
INSERT INTO "events" VALUES(29,'e26d75rp',29,'move','{"seat": 2, "move": "4S", "bot": true}','2026-12-04 03:22:58.968829');
INSERT INTO "events" VALUES(30,'e26d75rp',30,'move','{"seat": 3, "move": "4H", "bot": true}','2026-12-04 03:22:58.972984');
INSERT INTO "events" VALUES(31,'e26d75rp',31,'move','{"seat": 0, "move": "7H", "bot": false}','2026-12-04 03:22:58.977379');
INSERT INTO "events" VALUES(32,'e26d75rp',32,'move','{"seat": 0, "move": "4C", "bot": false}','2026-12-04 03:22:58.980410');
INSERT INTO "events" VALUES(33,'e26d75rp',33,'move','{"seat": 1, "move": "JC", "bot": true}','2026-12-04 03:22:58.982811');
INSERT INTO "events" VALUES(34,'e26d75rp',34,'move','{"seat": 2, "move": "QC", "bot": true}','2026-12-04 03:22:58.984654');
INSERT INTO "events" VALUES(35,'e26d75rp',35,'move','{"seat": 3, "move": "5H", "bot": true}','2026-12-04 03:22:58.986685');
INSERT INTO "events" VALUES(36,'e26d75rp',36,'move','{"seat": 2, "move": "5D", "bot": true}','2026-12-04 03:22:58.988665');
INSERT INTO "events" VALUES(37,'e26d75rp',37,'move','{"seat": 3, "move": "KD", "bot": true}','2026-12-04 03:22:58.990763');
INSERT INTO "events" VALUES(38,'e26d75rp',38,'move','{"seat": 0, "move": "6D", "bot": false}','2026-12-04 03:22:58.993024');
INSERT INTO "events" VALUES(39,'e26d75rp',39,'move','{"seat": 1, "move": "2S", "bot": true}','2026-12-04 03:22:58.995381');
INSERT INTO "events" VALUES(40,'e26d75rp',40,'move','{"seat": 3, "move": "7D", "bot": true}','2026-12-04 03:22:58.997293');
INSERT INTO "events" VALUES(41,'e26d75rp',41,'move','{"seat": 0, "move": "8D", "bot": false}','2026-12-04 03:22:58.999373');
INSERT INTO "events" VALUES(42,'e26d75rp',42,'move','{"seat": 1, "move": "5S", "bot": true}','2026-12-04 03:22:59.001723');
INSERT INTO "events" VALUES(43,'e26d75rp',43,'move','{"seat": 2, "move": "10D", "bot": true}','2026-12-04 03:22:59.003625');
INSERT INTO "events" VALUES(44,'e26d75rp',44,'move','{"seat": 2, "move": "9D", "bot": true}','2026-12-04 03:22:59.005580');
INSERT INTO "events" VALUES(45,'e26d75rp',45,'move','{"seat": 3, "move": "JD", "bot": true}','2026-12-04 03:22:59.007612');
INSERT INTO "events" VALUES(46,'e26d75rp',46,'move','{"seat": 0, "move": "KC", "bot": false}','2026-12-04 03:22:59.010391');
INSERT INTO "events" VALUES(47,'e26d75rp',47,'move','{"seat": 1, "move": "7S", "bot": true}','2026-12-04 03:22:59.012087');
INSERT INTO "events" VALUES(48,'e26d75rp',48,'move','{"seat": 0, "move": "9H", "bot": false}','2026-12-04 03:22:59.013875');
INSERT INTO "events" VALUES(49,'e26d75rp',49,'move','{"seat": 1, "move": "JH", "bot": true}','2026-12-04 03:22:59.017852');
INSERT INTO "events" VALUES(50,'e26d75rp',50,'move','{"seat": 2, "move": "AD", "bot": true}','2026-12-04 03:22:59.019435');
INSERT INTO "events" VALUES(51,'e26d75rp',51,'move','{"seat": 3, "move": "8H", "bot": true}','2026-12-04 03:22:59.021099');
INSERT INTO "events" VALUES(52,'e26d75rp',52,'move','{"seat": 1, "move": "JS", "bot": true}','2026-12-04 03:22:59.022566');
INSERT INTO "events" VALUES(53,'e26d75rp',53,'move','{"seat": 2, "move": "AS", "bot": true}','2026-12-04 03:22:59.023897');
INSERT INTO "events" VALUES(54,'e26d75rp',54,'move','{"seat": 3, "move": "8S", "bot": true}','2026-12-04 03:22:59.025472');
INSERT INTO "events" VALUES(55,'e26d75rp',55,'move','{"seat": 0, "move": "9S", "bot": false}','2026-12-04 03:22:59.026981');
INSERT INTO "events" VALUES(56,'e26d75rp',56,'move','{"seat": 2, "move": "10S", "bot": true}','2026-12-04 03:22:59.028618');
INSERT INTO "events" VALUES(57,'e26d75rp',57,'move','{"seat": 3, "move": "QD", "bot": true}','2026-12-04 03:22:59.030140');
INSERT INTO "events" VALUES(58,'e26d75rp',58,'move','{"seat": 0, "move": "AH", "bot": false}','2026-12-04 03:22:59.031642');
INSERT INTO "events" VALUES(59,'e26d75rp',59,'move','{"seat": 1, "move": "QH", "bot": true}','2026-12-04 03:22:59.033104');
INSERT INTO "events" VALUES(60,'e26d75rp',60,'deal_over','{"seed": 246551519649824900156857995918873128783, "winner": 0, "points": 1}','2026-12-04 03:22:59.034729');
INSERT INTO "events" VALUES(61,'e26d75rp',61,'ready','{"seat": 0}','2026-12-04 03:22:59.036428');
INSERT INTO "events" VALUES(62,'e26d75rp',62,'deal','{"seed": 66143164693138564106072371041797019152, "commitment": "4661316fea84a11f65958db1c63c456bf6529fc8366be6989ddcef7a6c0d8071", "dealer": 3}','2026-12-04 03:22:59.037533');
INSERT INTO "events" VALUES(63,'e26d75rp',63,'move','{"seat": 0, "move": "hide 4C", "bot": false}','2026-12-04 03:22:59.039774');
INSERT INTO "events" VALUES(64,'e26d75rp',64,'move','{"seat": 0, "move": "10C", "bot": false}','2026-12-04 03:22:59.041297');
INSERT INTO "events" VALUES(65,'e26d75rp',65,'move','{"seat": 1, "move": "5C", "bot": true}','2026-12-04 03:22:59.042706');
INSERT INTO "events" VALUES(66,'e26d75rp',66,'move','{"seat": 2, "move": "2C", "bot": true}','2026-12-04 03:22:59.044854');
INSERT INTO "events" VALUES(67,'e26d75rp',67,'move','{"seat": 3, "move": "JC", "bot": true}','2026-12-04 03:22:59.046293');
INSERT INTO "events" VALUES(68,'e26d75rp',68,'move','{"seat": 3, "move": "AH", "bot": true}','2026-12-04 03:22:59.047681');
INSERT INTO "events" VALUES(69,'e26d75rp',69,'move','{"seat": 0, "move": "3H", "bot": false}','2026-12-04 03:22:59.049215');
INSERT INTO "events" VALUES(70,'e26d75rp',70,'move','{"seat": 1, "move": "10H", "bot": true}','2026-12-04 03:22:59.050791');
INSERT INTO "events" VALUES(71,'e26d75rp',71,'move','{"seat": 2, "move": "5H", "bot": true}','2026-12-04 03:22:59.052246');
INSERT INTO "events" VALUES(72,'e26d75rp',72,'move','{"seat": 3, "move": "3C", "bot": true}','2026-12-04 03:22:59.053802');
INSERT INTO "events" VALUES(73,'e26d75rp',73,'move','{"seat": 0, "move": "4C", "bot": false}','2026-12-04 03:22:59.055101');
INSERT INTO "events" VALUES(74,'e26d75rp',74,'move','{"seat": 1, "move": "8C", "bot": true}','2026-12-04 03:22:59.056549');
INSERT INTO "events" VALUES(75,'e26d75rp',75,'move','{"seat": 2, "move": "6C", "bot": true}','2026-12-04 03:22:59.057969');
INSERT INTO "events" VALUES(76,'e26d75rp',76,'move','{"seat": 1, "move": "2H", "bot": true}','2026-12-04 03:22:59.059387');
INSERT INTO "events" VALUES(77,'e26d75rp',77,'move','{"seat": 2, "move": "6H", "bot": true}','2026-12-04 03:22:59.061631');
INSERT INTO "events" VALUES(78,'e26d75rp',78,'move','{"seat": 3, "move": "KH", "bot": true}','2026-12-04 03:22:59.064092');
INSERT INTO "events" VALUES(79,'e26d75rp',79,'move','{"seat": 0, "move": "4H", "bot": false}','2026-12-04 03:22:59.066449');
INSERT INTO "events" VALUES(80,'e26d75rp',80,'move','{"seat": 3, "move": "5D", "bot": true}','2026-12-04 03:22:59.068979');
INSERT INTO "events" VALUES(81,'bcjhr5ce',1,'seat','{"seat": 0, "kind": "human", "name": "", "token": "71367a1bb3d48665ce20c8d86360019b0ff9d419286f2f8a7bbe807f7b11a095"}','2026-12-04 03:22:59.076580');
INSERT INTO "events" VALUES(82,'bcjhr5ce',2,'seat','{"seat": 1, "kind": "bot", "name": "rules bot"}','2026-12-04 03:22:59.077231');
INSERT INTO "events" VALUES(83,'bcjhr5ce',3,'seat','{"seat": 2, "kind": "bot", "name": "rules bot"}','2026-12-04 03:22:59.077890');
INSERT INTO "events" VALUES(84,'bcjhr5ce',4,'start','{"match_seed": 12236395660036363626}','2026-12-04 03:22:59.078483');
INSERT INTO "events" VALUES(85,'bcjhr5ce',5,'deal','{"seed": 293526050827967314190843326013266627193, "commitment": "95bb1187b2376cc927429f2ece7ce1d7cff1f0119f9ee4197f5f18b8d6d32e42", "dealer": 1}','2026-12-04 03:22:59.079157');
INSERT INTO "events" VALUES(86,'bcjhr5ce',6,'move','{"seat": 0, "move": "KrR", "bot": false}','2026-12-04 03:22:59.085319');
INSERT INTO "events" VALUES(87,'bcjhr5ce',7,'move','{"seat": 1, "move": "Kr2", "bot": true}','2026-12-04 03:22:59.090923');
INSERT INTO "events" VALUES(88,'bcjhr5ce',8,'move','{"seat": 2, "move": "Kr3", "bot": true}','2026-12-04 03:22:59.092195');
INSERT INTO "events" VALUES(89,'bcjhr5ce',9,'move','{"seat": 0, "move": "Ma9", "bot": false}','2026-12-04 03:22:59.103331');
INSERT INTO "events" VALUES(90,'bcjhr5ce',10,'move','{"seat": 1, "move": "Ma8", "bot": true}','2026-12-04 03:22:59.105591');
INSERT INTO "events" VALUES(91,'bcjhr5ce',11,'move','{"seat": 2, "move": "Ma7", "bot": true}','2026-12-04 03:22:59.106821');
INSERT INTO "events" VALUES(92,'bcjhr5ce',12,'move','{"seat": 2, "move": "dukal Na4 Na3 Na2 Na1", "bot": true}','2026-12-04 03:22:59.109037');
INSERT INTO "events" VALUES(93,'bcjhr5ce',13,'move','{"seat": 0, "move": "give MaM MaR Ku8 Ku7", "bot": false}','2026-12-04 03:22:59.110258');
INSERT INTO "events" VALUES(94,'bcjhr5ce',14,'move','{"seat": 1, "move": "give Pa1 Ra2 Bu1 Ka3", "bot": true}','2026-12-04 03:22:59.111396');
INSERT INTO "events" VALUES(95,'bcjhr5ce',15,'move','{"seat": 2, "move": "dukal Ra6 Ra7 Ra8", "bot": true}','2026-12-04 03:22:59.112296');
INSERT INTO "events" VALUES(96,'bcjhr5ce',16,'move','{"seat": 0, "move": "give Ku3 Ku2 KuM", "bot": false}','2026-12-04 03:22:59.113471');
INSERT INTO "events" VALUES(97,'bcjhr5ce',17,'move','{"seat": 1, "move": "give Ma6 Vr7 Bu4", "bot": true}','2026-12-04 03:22:59.114567');
INSERT INTO "events" VALUES(98,'bcjhr5ce',18,'move','{"seat": 2, "move": "RaR", "bot": true}','2026-12-04 03:22:59.115445');
INSERT INTO "events" VALUES(99,'bcjhr5ce',19,'move','{"seat": 0, "move": "Ra1", "bot": false}','2026-12-04 03:22:59.116378');
INSERT INTO "events" VALUES(100,'bcjhr5ce',20,'move','{"seat": 1, "move": "Ra9", "bot": true}','2026-12-04 03:22:59.117545');
INSERT INTO "events" VALUES(101,'bcjhr5ce',21,'move','{"seat": 2, "move": "RaM", "bot": true}','2026-12-04 03:22:59.118463');
INSERT INTO "events" VALUES(102,'bcjhr5ce',22,'move','{"seat": 0, "move": "Ra5", "bot": false}','2026-12-04 03:22:59.119380');
INSERT INTO "events" VALUES(103,'bcjhr5ce',23,'move','{"seat": 1, "move": "Kr8", "bot": true}','2026-12-04 03:22:59.120294');
INSERT INTO "events" VALUES(104,'bcjhr5ce',24,'move','{"seat": 1, "move": "dukal Ka6 Ka7 Ka8 Ka9", "bot": true}','2026-12-04 03:22:59.121220');
INSERT INTO "events" VALUES(105,'bcjhr5ce',25,'move','{"seat": 2, "move": "give Ma10 Ku10 Ku9 Vr9", "bot": true}','2026-12-04 03:22:59.122528');
CREATE TABLE rooms (
	code VARCHAR(16) NOT NULL, 
	config JSON NOT NULL, 
	finished BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (code)
);
INSERT INTO "rooms" VALUES('e26d75rp','{"game": "mindi", "rules": {"players": 4, "deck": 52, "direction": "anticlockwise", "first_dealer": "highest", "draw_partnerships": false, "trump": "band", "reveal": "auto", "must_trump": false, "capture": "tricks", "tie_break": "tricks", "points": [1, 2, 3], "target": null, "deals": 3, "dealer_rotation": "losers_deal"}, "preset": "hidden", "bots": "rules", "turn_timeout": null}',0,'2026-12-04 03:22:58.865326');
INSERT INTO "rooms" VALUES('bcjhr5ce','{"game": "ganjifa", "rules": {"time": "night", "void_rule": "choice", "dukal": "run", "deals": 1}, "preset": "cardavia", "bots": "rules", "turn_timeout": null}',0,'2026-12-04 03:22:59.075541');
CREATE INDEX ix_rooms_finished ON rooms (finished);
CREATE INDEX ix_events_room ON events (room);
COMMIT;
